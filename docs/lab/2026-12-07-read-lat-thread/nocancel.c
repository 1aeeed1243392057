// LD_PRELOAD: write() without glibc's cancellation wrapper (lab only)
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>
ssize_t write(int fd, const void *b, size_t n)
{
	return syscall(SYS_write, fd, b, n);
}
