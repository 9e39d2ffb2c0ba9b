/*
 * epoll_guard.c - libmicrohttpd's epoll_ctl(), made idempotent where 0.9.75 races itself
 * (http_guard_listen_socket(), epoll_guard.h).
 *
 * With a thread pool in epoll mode each pool thread keeps the listening socket in its own
 * epoll set. A thread takes it out itself at its connection limit, and on seeing the
 * quiesce flag (daemon.c MHD_epoll()); MHD_quiesce_daemon() sets that flag on each thread
 * and then takes the socket out of the thread's set from the calling thread, reading the
 * thread's "in the set" flag without a lock (daemon.c:5521-5533, unchanged in 1.0). When the
 * thread removed it in between, the second epoll_ctl(EPOLL_CTL_DEL) fails with ENOENT, and
 * the library aborts: "Fatal error in daemon.c:5531: Failed to remove listen FD from epoll
 * set" (seen once under ThreadSanitizer at SIGTERM); the thread's own removal at its limit
 * (daemon.c:4976) aborts the same way when it loses. Either way the socket is out of the set,
 * which is what both wanted. So this program's epoll_ctl() (the executable's definition
 * comes first for the library's calls) passes every call on to the next definition
 * (libc's, or a sanitizer's interceptor) and answers 0 to one thing only: EPOLL_CTL_DEL of
 * the guarded listening socket that failed with ENOENT. Nothing else changes.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "http/epoll_guard.h"

static atomic_int guarded = -1;

void http_guard_listen_socket(int socket_fd)
{
	atomic_store(&guarded, socket_fd);
}

typedef int (*epoll_ctl_function)(int, int, int, struct epoll_event *);

static epoll_ctl_function next_epoll_ctl(void)
{
	static _Atomic(epoll_ctl_function) next;
	epoll_ctl_function found = atomic_load(&next);
	if (!found) {
		/* A function pointer from dlsym(): POSIX guarantees the conversion. */
		void *symbol = dlsym(RTLD_NEXT, "epoll_ctl");
		*(void **)&found = symbol;
		atomic_store(&next, found);
	}
	return found;
}

int epoll_ctl(int epoll_fd, int operation, int fd, struct epoll_event *event)
{
	epoll_ctl_function next = next_epoll_ctl();
	int result = next ? next(epoll_fd, operation, fd, event)
			  : (int)syscall(SYS_epoll_ctl, epoll_fd, operation, fd, event);
	if (result != 0 && errno == ENOENT && operation == EPOLL_CTL_DEL && fd >= 0 && fd == atomic_load(&guarded))
		return 0; /* already out of the set: the other remover was first */
	return result;
}
