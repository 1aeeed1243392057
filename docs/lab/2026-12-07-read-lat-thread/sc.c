// sc MODE N: time N system calls (write of 1 byte to /dev/null, or getppid
// with MODE=p), TSC per call, min and median in cycles; SC_THREAD=1 runs
// the loop in a second thread while the first waits in pthread_join,
// SC_EXIT=1 has the first thread exit instead.  Lab tool.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int mode_p, n;

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void *run(void *arg)
{
	uint64_t *t = calloc(n, 8);
	int fd = open("/dev/null", O_WRONLY);
	char c = 0;

	for (int i = 0; i < n; i++) {
		uint64_t a = tsc();
		if (mode_p)
			syscall(SYS_getppid);
		else if (write(fd, &c, 1) != 1)
			exit(1);
		t[i] = tsc() - a;
	}
	qsort(t, n, 8, cmp);
	printf("min %lu p50 %lu p90 %lu\n", t[0], t[n / 2], t[n * 9 / 10]);
	fflush(stdout);
	if (arg)
		exit(0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	mode_p = argc > 1 && argv[1][0] == 'p';
	n = argc > 2 ? atoi(argv[2]) : 100000;
	if (!getenv("SC_THREAD")) {
		run(NULL);
		return 0;
	}
	pthread_create(&th, NULL, run, getenv("SC_EXIT") ? (void *)1 : NULL);
	if (getenv("SC_EXIT"))
		pthread_exit(NULL);
	pthread_join(th, NULL);
	return 0;
}
