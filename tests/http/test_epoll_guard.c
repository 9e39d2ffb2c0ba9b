/*
 * test_epoll_guard.c - MHD_quiesce_daemon() on a daemon whose pool threads already took the
 * listening socket out of their epoll sets (http/epoll_guard.c): the race of libmicrohttpd
 * 0.9.75 that aborted the server at SIGTERM ("Fatal error in daemon.c:5531: Failed to
 * remove listen FD from epoll set"), made certain. A daemon as http_start() makes it
 * (internal thread pool, epoll) listens; the test takes the socket out of every pool
 * thread's epoll set behind the library's back (what a thread does itself at its
 * connection limit, or on seeing the quiesce flag, just before MHD_quiesce_daemon() reads
 * that thread's flag), and then quiesces: unguarded, the library aborts (Check's fork
 * reports the signal); guarded, the daemon quiesces and stops.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "http/epoll_guard.h"
#include "tests/check_main.h"

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
			      const char *version, const char *upload_data, size_t *upload_data_size, void **context)
{
	(void)cls, (void)url, (void)method, (void)version, (void)upload_data, (void)upload_data_size, (void)context;
	struct MHD_Response *response = MHD_create_response_from_buffer(2, "ok", MHD_RESPMEM_PERSISTENT);
	enum MHD_Result queued = MHD_queue_response(connection, 200, response);
	MHD_destroy_response(response);
	return queued;
}

/* Take `socket_fd` out of every epoll set of this process that holds it (read from
 * /proc/self/fdinfo: an epoll descriptor lists a "tfd:" line per watched descriptor), with
 * the system call itself (not the guarded epoll_ctl()). The number of sets. */
static int remove_everywhere(int socket_fd)
{
	int removed = 0;
	DIR *fds = opendir("/proc/self/fdinfo");
	ck_assert_ptr_nonnull(fds);
	struct dirent *entry;
	while ((entry = readdir(fds))) {
		if (entry->d_name[0] == '.')
			continue;
		char path[300], line[256];
		snprintf(path, sizeof path, "/proc/self/fdinfo/%s", entry->d_name);
		FILE *info = fopen(path, "r");
		if (!info)
			continue;
		int holds = 0;
		while (fgets(line, sizeof line, info)) {
			int watched;
			if (sscanf(line, "tfd: %d", &watched) == 1 && watched == socket_fd)
				holds = 1;
		}
		fclose(info);
		if (holds && syscall(SYS_epoll_ctl, atoi(entry->d_name), EPOLL_CTL_DEL, socket_fd, NULL) == 0)
			removed++;
	}
	closedir(fds);
	return removed;
}

START_TEST(test_quiesce_after_the_pool_threads_removed_the_listening_socket_does_not_abort)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO;
	struct MHD_Daemon *daemon =
		MHD_start_daemon(flags, 0, NULL, NULL, answer, NULL, MHD_OPTION_THREAD_POOL_SIZE, 4u, MHD_OPTION_END);
	ck_assert_ptr_nonnull(daemon);
	const union MHD_DaemonInfo *listening = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
	ck_assert_ptr_nonnull(listening);
	http_guard_listen_socket(listening->listen_fd); /* as http_start() does */
	usleep(100000);					/* the pool threads have added it to their sets */
	int removed = remove_everywhere(listening->listen_fd);
	ck_assert_msg(removed >= 4, "the socket was in %d epoll sets", removed);
	MHD_socket socket_fd = MHD_quiesce_daemon(daemon); /* aborted here, unguarded */
	ck_assert_int_eq(socket_fd, listening->listen_fd);
	MHD_stop_daemon(daemon);
	close(socket_fd);
	/* Any other failure of epoll_ctl() is as it was. */
	int epoll_fd = epoll_create1(0);
	ck_assert_int_ge(epoll_fd, 0);
	int other = dup(0);
	ck_assert_int_eq(epoll_ctl(epoll_fd, EPOLL_CTL_DEL, other, NULL), -1);
	close(other);
	close(epoll_fd);
	http_guard_listen_socket(-1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("epoll_guard");
	TCase *guard = tcase_create("guard");
	tcase_add_test(guard, test_quiesce_after_the_pool_threads_removed_the_listening_socket_does_not_abort);
	suite_add_tcase(suite, guard);
	return suite;
}
