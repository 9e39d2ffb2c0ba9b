/*
 * lock.h - the one lock under which render/ calls cairo and fontconfig (internal to
 * render/).
 *
 * Why: cairo 1.16 keeps process-wide caches behind the drawing (toy font faces, scaled
 * fonts and their glyphs, resolved through fontconfig) that the way render/ draws text
 * races when two threads draw at once: issue 20 item 2, two clients asking for uncached
 * pictures aborted the server in cairo_scaled_font_reference(). Debian's cairo and
 * fontconfig are not built with ThreadSanitizer, so TSan cannot see such a race; it has to
 * be ruled out by construction. So every call into cairo or fontconfig, from any thread,
 * is made with this one lock held: render_board() takes it for the drawing itself
 * (surface, paths, text, finishing the surface, which writes an SVG) and not for what needs
 * neither (the frame, rewriting the SVG's element names, encoding the PNG with libpng,
 * which run in parallel); render_shutdown() takes it to release the caches. Nothing else
 * in the server calls cairo or fontconfig.
 *
 * The check: render/cairo_checked.h, included last by every file of render/ that calls
 * cairo, turns each cairo and fontconfig function they call into a macro that first
 * asserts render_lock_held() (in every build without NDEBUG: the tests and the server as
 * `make` builds it), and scripts/check-cairo-calls.sh (`make check-layers`) fails when a
 * file of render/ calls a function that list does not wrap, or calls cairo without that
 * header.
 *
 * Not recursive: a thread that holds it must not take it again.
 */
#ifndef CATAN_RENDER_LOCK_H
#define CATAN_RENDER_LOCK_H

void render_lock_acquire(void);
void render_lock_release(void);

/* 1 when the calling thread holds the lock. */
int render_lock_held(void);

#endif
