/*
 * escape.h - player text written into a format that gives characters a meaning: the one
 * function per format through which a seat's or a player's name (or anything else a client
 * typed) enters a Discord message, a Slack message, or HTML and XML (a mail's HTML part,
 * the service's small pages).
 *
 * What each format must not be handed raw:
 *   Discord  markdown (*bold*, _, ~~, `code`, > quotes, # headings, - lists, ||spoilers||,
 *            [masked](links)), mentions (<@user>, <@&role>, <#channel>, @everyone,
 *            @here), custom emoji and timestamps (<:x:1>, <t:1>), and bare URLs, which
 *            Discord turns into links: every ASCII punctuation character gets a backslash
 *            (Discord shows "\X" as X for any punctuation X and gives it no meaning), and
 *            "@" is followed by U+200B ZERO WIDTH SPACE, so no "@everyone", "@here" or
 *            "<@" survives.
 *   Slack    mrkdwn's control sequences (<@U1>, <!channel>, <#C1>, <https://x|masked>),
 *            which all start with "<": "&", "<" and ">" become "&amp;", "&lt;" and "&gt;"
 *            (Slack's own rule), and "@" is followed by U+200B as for Discord (for
 *            services that link bare "@channel"). Slack has no escape for *bold*, _italic_
 *            or ~strike~: those only change how a name looks, never where a click goes.
 *   markup   HTML and XML character data and attribute values: & < > " ' as entities.
 * In every format, what a reader must not be shown raw or cannot see at all becomes
 * U+FFFD REPLACEMENT CHARACTER: bytes that are not well-formed UTF-8, control characters
 * (C0 with tab and newline, DEL, C1), line and paragraph separators, bidi controls, and the
 * other default-ignorable code points of Unicode 15.0 (DerivedCoreProperties.txt:
 * U+00AD, U+034F, U+061C, U+115F..U+1160, U+17B4..U+17B5, U+180B..U+180F, U+200B..U+200F,
 * U+202A..U+202E, U+2060..U+206F, U+3164, U+FEFF, U+FFA0, U+FFF0..U+FFF8, U+1BCA0..U+1BCA3,
 * U+1D173..U+1D17A, U+E0000..U+E0FFF), except the variation selectors U+FE00..U+FE0F that
 * emoji need. So a zero-width character cannot hide inside "@everyone" and a right-to-left
 * override cannot turn the text around it.
 *
 * Contract of every function: `out` gets the escaped text, always NUL-terminated and valid
 * UTF-8, cut (when `size` is too small) only between two escaped characters, never inside
 * an escape; the return value is the length written. ESCAPE_SIZE(strlen(text)) bytes always
 * hold the whole result. Pure: no allocation, no locale, no globals. Only what a client
 * wrote goes through them: the words the service writes around it carry their own markup.
 */
#ifndef CATAN_CODEC_ESCAPE_H
#define CATAN_CODEC_ESCAPE_H

#include <stddef.h>

/* Room that holds any escape of `length` bytes: the longest piece is 6 bytes ("&quot;") and
 * no input byte becomes more than one piece. */
#define ESCAPE_SIZE(length) ((length)*6 + 1)

size_t escape_discord(char *out, size_t size, const char *text);
size_t escape_slack(char *out, size_t size, const char *text);
size_t escape_markup(char *out, size_t size, const char *text);

#endif
