/*
 * test_http_shutdown.c - SIGTERM while the server's HTTP threads are at their connection
 * limit: the server stops cleanly (exit status 0), every time.
 *
 * libmicrohttpd 0.9.75's MHD_quiesce_daemon() (daemon.c:5531), in thread-pool + epoll mode,
 * takes the listening socket out of each pool thread's epoll set itself, while that thread
 * may be doing the same (it does at its connection limit, and when it sees the quiesce
 * flag the call has just set): the loser's epoll_ctl(DEL) fails with ENOENT and the
 * library aborts ("Failed to remove listen FD from epoll set"). Once seen under
 * ThreadSanitizer. Here every pool thread is held at its limit (MAX_CONNECTIONS equal to
 * THREADS: one connection each) by clients that connect, ask and hang up as fast as they
 * can, so each thread adds and removes the listening socket all the time, and SIGTERM
 * comes in the middle of it, ROUNDS times. The server must never die of a signal.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define ROUNDS (getenv("SHUTDOWN_ROUNDS") ? atoi(getenv("SHUTDOWN_ROUNDS")) : 12)
#define CLIENTS 6

struct hammer {
	int port;
	atomic_int *stop;
	long requests;
};

/* Connect, ask for /healthz, read a little, hang up; again, until told to stop. */
static void *hammer(void *argument)
{
	struct hammer *hammer = argument;
	static const char request[] = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	while (!atomic_load(hammer->stop)) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			continue;
		struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)hammer->port)};
		address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
			if (write(fd, request, sizeof request - 1) > 0) {
				char answer[256];
				if (read(fd, answer, sizeof answer) > 0)
					hammer->requests++;
			}
		}
		close(fd);
	}
	return NULL;
}

START_TEST(test_sigterm_at_the_connection_limit_stops_cleanly)
{
	static const char *const settings[] = {"THREADS=8", "MAX_CONNECTIONS=8", "MAX_CONNECTIONS_PER_IP=8", NULL};
	int failures = 0;
	long requests = 0;
	for (int round = 0; round < ROUNDS; round++) {
		struct http_server server;
		http_server_start(&server, settings);
		atomic_int stop = 0;
		pthread_t threads[CLIENTS];
		struct hammer hammers[CLIENTS];
		for (int i = 0; i < CLIENTS; i++) {
			hammers[i] = (struct hammer){server.port, &stop, 0};
			pthread_create(&threads[i], NULL, hammer, &hammers[i]);
		}
		http_pause(0.3 + 0.05 * (round % 4));
		int status = http_server_stop(&server, 30);
		atomic_store(&stop, 1);
		for (int i = 0; i < CLIENTS; i++) {
			pthread_join(threads[i], NULL);
			requests += hammers[i].requests;
		}
		if (status != 0) {
			failures++;
			fprintf(stderr, "round %d: the server exited with %d (log %s)\n", round, status,
				server.log_path);
		}
	}
	fprintf(stderr, "%d rounds, %ld requests answered, %d unclean stops\n", ROUNDS, requests, failures);
	ck_assert_msg(requests > 0, "the clients reached the server");
	ck_assert_msg(failures == 0, "%d of %d stops at the connection limit were not clean", failures, ROUNDS);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_shutdown");
	TCase *shutdown_case = tcase_create("shutdown");
	tcase_set_timeout(shutdown_case, 240);
	tcase_add_test(shutdown_case, test_sigterm_at_the_connection_limit_stops_cleanly);
	suite_add_tcase(suite, shutdown_case);
	return suite;
}
