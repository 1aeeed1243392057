/* times 4 reads of a port's GID table: full paths vs openat on a dir fd */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv)
{
	const char *dir = argv[1];
	char p[512], b[64];
	double t0 = now();
	for (int r = 0; r < 4; r++)
		for (int i = 0; i < 1024; i++) {
			snprintf(p, sizeof(p), "%s/%d", dir, i);
			FILE *f = fopen(p, "r");
			if (f) { fgets(b, sizeof(b), f); fclose(f); }
		}
	double t1 = now();
	for (int r = 0; r < 4; r++) {
		int d = open(dir, O_RDONLY | O_DIRECTORY);
		for (int i = 0; i < 1024; i++) {
			snprintf(p, sizeof(p), "%d", i);
			int fd = openat(d, p, O_RDONLY);
			if (fd >= 0) { read(fd, b, sizeof(b)); close(fd); }
		}
		close(d);
	}
	double t2 = now();
	printf("fopen full path: %.3f s; openat dirfd: %.3f s (4 x 1024)\n", t1 - t0, t2 - t1);
	return 0;
}
