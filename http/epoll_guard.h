/*
 * epoll_guard.h - the guard on libmicrohttpd 0.9.75's two removers of the listening socket
 * from a pool thread's epoll set (MHD_quiesce_daemon() and the thread itself), which abort
 * the process when the other was first: see epoll_guard.c. Owned by http.c, which names
 * the daemon's listening socket once it is started.
 */
#ifndef CATAN_HTTP_EPOLL_GUARD_H
#define CATAN_HTTP_EPOLL_GUARD_H

/* From now on an EPOLL_CTL_DEL of `socket_fd` that finds it already out of the set
 * succeeds (-1: guard nothing). */
void http_guard_listen_socket(int socket_fd);

#endif
