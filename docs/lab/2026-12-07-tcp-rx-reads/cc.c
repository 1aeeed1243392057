/* LD_PRELOAD shim: TCP_CONGESTION from $CC on every socket connect()s or
 * accept()s (for qperf), to see how congestion control moves tcp_bw. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
static void setcc(int fd)
{
	const char *cc = getenv("CC");

	if (fd >= 0 && cc)
		setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc));
}
int connect(int fd, const struct sockaddr *a, socklen_t l)
{
	static int (*real)(int, const struct sockaddr *, socklen_t);

	if (!real)
		real = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "connect");
	setcc(fd);
	return real(fd, a, l);
}
int accept(int fd, struct sockaddr *a, socklen_t *l)
{
	static int (*real)(int, struct sockaddr *, socklen_t *);
	int r;

	if (!real)
		real = (int (*)(int, struct sockaddr *, socklen_t *))dlsym(RTLD_NEXT, "accept");
	r = real(fd, a, l);
	setcc(r);
	return r;
}
