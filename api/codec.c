#include "api/codec.h"
#include <stdio.h>
int codec_replay_log(const char *text, size_t size, struct game *out, char *message, size_t message_size)
{
	(void)text; (void)size; (void)out;
	snprintf(message, message_size, "not implemented");
	return 0;
}
