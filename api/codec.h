/* codec.h - placeholder; the JSON codec is being written. */
#ifndef CATAN_API_CODEC_H
#define CATAN_API_CODEC_H
#include <stddef.h>
#include "engine/game.h"
int codec_replay_log(const char *text, size_t size, struct game *out, char *message, size_t message_size);
#endif
