#define _GNU_SOURCE
// Minimal RDMA read latency pair over rdma_cm, timed as ib_read_lat times
// (one TSC read per post, post to post).  Lab tool, not part of ibgap.
// rl -s PORT                 server
// rl ADDR PORT N [POLL]      client: N reads of 2 bytes, poll POLL wcs
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pd { uint64_t addr; uint32_t rkey; };

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static double mhz(void)
{
	struct timespec a, b;
	uint64_t t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = tsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
	t1 = tsc();
	return (t1 - t0) / (((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3);
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static struct rdma_cm_id *ep(const char *host, const char *port, int passive)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	struct ibv_qp_init_attr a = { .cap = { .max_send_wr = 16, .max_recv_wr = 1,
		.max_send_sge = 1, .max_recv_sge = 1 }, .sq_sig_all = 0 };
	struct rdma_cm_id *id;

	if (passive)
		hints.ai_flags = RAI_PASSIVE;
	if (rdma_getaddrinfo(host, port, &hints, &res)) { perror("getaddrinfo"); exit(1); }
	if (rdma_create_ep(&id, res, NULL, &a)) { perror("create_ep"); exit(1); }
	rdma_freeaddrinfo(res);
	return id;
}

static struct rdma_cm_id *ep2(const char *host, const char *port)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	int sq = getenv("RL_SQ") ? atoi(getenv("RL_SQ")) : 16;
	int rq = getenv("RL_RQ") ? atoi(getenv("RL_RQ")) : 1;
	struct ibv_qp_init_attr a = { .cap = { .max_send_wr = sq, .max_recv_wr = rq ? rq : 1,
		.max_send_sge = 1, .max_recv_sge = 1 }, .qp_type = IBV_QPT_RC };
	struct rdma_cm_id *id;
	struct ibv_pd *pd;

	if (rdma_getaddrinfo(host, port, &hints, &res)) { perror("getaddrinfo"); exit(1); }
	if (rdma_create_ep(&id, res, NULL, NULL)) { perror("create_ep"); exit(1); }
	rdma_freeaddrinfo(res);
	pd = ibv_alloc_pd(id->verbs);
	a.send_cq = ibv_create_cq(id->verbs, sq + 16, NULL, NULL, 0);
	a.recv_cq = ibv_create_cq(id->verbs, (rq ? rq : 1) + 16, NULL, NULL, 0);
	if (rdma_create_qp(id, pd, &a)) { perror("create_qp"); exit(1); }
	return id;
}

static int server(const char *port)
{
	struct rdma_cm_id *l = ep(NULL, port, 1), *id;
	char *buf = aligned_alloc(4096, 4096);
	struct rdma_conn_param cp = { .responder_resources = 16, .initiator_depth = 16 };
	struct rdma_cm_event *ev;
	struct ibv_mr *mr;
	struct pd p;

	if (rdma_listen(l, 1) || rdma_get_request(l, &id)) { perror("listen"); return 1; }
	mr = ibv_reg_mr(id->pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	p.addr = (uintptr_t)buf;
	p.rkey = mr->rkey;
	cp.private_data = &p;
	cp.private_data_len = sizeof(p);
	if (rdma_accept(id, &cp)) { perror("accept"); return 1; }
	if (rdma_get_cm_event(id->channel, &ev) == 0)
		rdma_ack_cm_event(ev);
	rdma_disconnect(id);
	return 0;
}

#include <pthread.h>
#include <sched.h>
static int run(int argc, char **argv);
struct targ { int argc; char **argv; int ret; volatile int done; };
static void *tmain(void *p)
{
	struct targ *t = p;
	if (getenv("RL_UNSHARE") && unshare(CLONE_FILES)) perror("unshare");
	t->ret = run(t->argc, t->argv);
	t->done = 1;
	if (getenv("RL_EXIT"))
		exit(t->ret);
	return NULL;
}

int main(int argc, char **argv)
{
	if (getenv("RL_THREAD") && argc >= 4) {
		struct targ t = { argc, argv, 0, 0 };
		pthread_t th;
		pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
		pthread_cond_t c = PTHREAD_COND_INITIALIZER;
		pthread_create(&th, NULL, tmain, &t);
		if (getenv("RL_MAIN_CPU")) {
			cpu_set_t cs;
			CPU_ZERO(&cs);
			CPU_SET(atoi(getenv("RL_MAIN_CPU")), &cs);
			if (sched_setaffinity(0, sizeof(cs), &cs))
				perror("setaffinity");
		}
		if (getenv("RL_EXIT")) {
			static struct targ *keep;
			keep = &t;
			(void)keep;
			pthread_exit(NULL); /* t lives on: main's stack stays mapped */
		}
		pthread_mutex_lock(&m);
		while (!t.done && !getenv("RL_JOIN")) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100000000;
			if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
			pthread_cond_timedwait(&c, &m, &ts);
		}
		pthread_mutex_unlock(&m);
		pthread_join(th, NULL);
		return t.ret;
	}
	if (getenv("RL_ALLOCA")) {
		size_t k = (size_t)atoi(getenv("RL_ALLOCA")) * 4096 + 64;
		volatile char *p = __builtin_alloca(k);
		p[0] = 1;
		p[k - 1] = 1;
		return run(argc, argv) + p[0] - 1;
	}
	return run(argc, argv);
}

static int run(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return server(argv[2]);
	if (argc < 4) { fprintf(stderr, "usage\n"); return 2; }
	int n = atoi(argv[3]), np = argc > 4 ? atoi(argv[4]) : 1;
	struct rdma_cm_id *id = ep2(argv[1], argv[2]);
	char *buf = aligned_alloc(4096, 4096);
	struct ibv_mr *mr = ibv_reg_mr(id->qp->pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	int rq = getenv("RL_RQ") ? atoi(getenv("RL_RQ")) : 0;
	for (int i = 0; i < rq; i++) {
		struct ibv_sge rs = { .addr = (uintptr_t)buf + 2048, .length = 16, .lkey = mr->lkey };
		struct ibv_recv_wr rw = { .sg_list = &rs, .num_sge = 1 }, *rb;
		if (ibv_post_recv(id->qp, &rw, &rb)) { perror("post_recv"); return 1; }
	}
	struct rdma_conn_param cp = { .responder_resources = 16, .initiator_depth = 16 };
	struct ibv_wc wc[64];
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 2, .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED }, *bad;
	uint64_t *t = calloc(n + 1, 8);
	struct pd p;
	double m;

	if (rdma_connect(id, &cp)) { perror("connect"); return 1; }
	if (!id->event) { fprintf(stderr, "no event\n"); return 1; }
	memcpy(&p, id->event->param.conn.private_data, sizeof(p));
	wr.wr.rdma.remote_addr = p.addr;
	wr.wr.rdma.rkey = p.rkey;
	for (int i = 0; i < n; i++) {
		int ne;
		t[i] = tsc();
		if (ibv_post_send(id->qp, &wr, &bad)) { perror("post"); return 1; }
		do
			ne = ibv_poll_cq(id->qp->send_cq, np, wc);
		while (ne == 0);
		if (ne < 0 || wc[0].status) { fprintf(stderr, "wc %d\n", wc[0].status); return 1; }
	}
	t[n] = tsc();
	{
		char l[256];
		FILE *f = fopen("/proc/thread-self/status", "r");
		while (f && fgets(l, sizeof(l), f))
			if (strstr(l, "ctxt_switches"))
				fputs(l, stderr);
		if (f)
			fclose(f);
		f = fopen("/proc/thread-self/schedstat", "r");
		if (f && fgets(l, sizeof(l), f))
			fprintf(stderr, "schedstat %s", l);
		if (f)
			fclose(f);
	}
	for (int i = 0; i < n; i++)
		t[i] = t[i + 1] - t[i];
	qsort(t, n, 8, cmp);
	m = mhz();
	printf("min %.2f p50 %.2f mhz %.1f\n", t[0] / m, t[n / 2] / m, m);
	rdma_disconnect(id);
	return 0;
}
