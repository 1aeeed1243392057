#include <sys/wait.h>
/* mini: loopback TCP bandwidth, 128 KiB blocking writes/reads, to bisect
 * what makes ibgap/iperf3 slower than qperf.
 *   mini r PORT [T]     receiver (T: do it in a second thread)
 *   mini s PORT SECS [T] [A]  sender (A: buffer aligned_alloc+memset)   */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#define MSG 131072
static volatile int done;
static int fd, secs, bufmode;
static long long total;
static void onalrm(int s){(void)s;done=1;}
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void *rx(void *a){char *b=malloc(MSG);ssize_t n;(void)a;
	if(getenv("FULL")){for(;;){int off=0;while(off<MSG){n=read(fd,b+off,MSG-off);if(n<=0)return NULL;off+=n;total+=n;}}}
	while((n=read(fd,b,MSG))>0)total+=n;return NULL;}
static void *tx(void *a){char *b;(void)a;
	if(bufmode){b=aligned_alloc(4096,MSG);memset(b,0xa5,MSG);}else b=malloc(MSG);
	double t0=now(),t1;
	alarm(secs);signal(SIGALRM,onalrm);while(!done){int off=0;while(off<MSG){ssize_t n=write(fd,b+off,MSG-off);if(n<=0)return NULL;off+=n;}total+=MSG;}
	t1=now();printf("%.2f\n",total*8/(t1-t0)/1e9);return NULL;}
int main(int argc,char**argv){struct sockaddr_in sa={.sin_family=AF_INET,.sin_port=htons(atoi(argv[2])),.sin_addr.s_addr=htonl(0x7f000001)};
	int thr=0;pthread_t th;
	if(argv[1][0]=='r'||argv[1][0]=='6'){int l,one=1,zero=0;thr=argc>3&&argv[3][0]=='T';
		struct sockaddr_in6 s6={.sin6_family=AF_INET6,.sin6_port=sa.sin_port,.sin6_addr=IN6ADDR_ANY_INIT};
		if(argv[1][0]=='6'){l=socket(AF_INET6,SOCK_STREAM,0);setsockopt(l,IPPROTO_IPV6,IPV6_V6ONLY,&zero,4);setsockopt(l,SOL_SOCKET,SO_REUSEADDR,&one,4);bind(l,(void*)&s6,sizeof s6);}
		else{l=socket(AF_INET,SOCK_STREAM,0);setsockopt(l,SOL_SOCKET,SO_REUSEADDR,&one,4);bind(l,(void*)&sa,sizeof sa);}
		listen(l,8);
		for(;;){fd=accept(l,0,0);total=0;if(getenv("FORK")){if(fork()==0){rx(0);_exit(0);}close(fd);continue;}if(thr){pthread_create(&th,0,rx,0);pthread_join(th,0);}else rx(0);close(fd);}}
	secs=atoi(argv[3]);thr=argc>4&&argv[4][0]=='T';bufmode=argc>5&&argv[5][0]=='A';
	fd=socket(AF_INET,SOCK_STREAM,0);if(connect(fd,(void*)&sa,sizeof sa))return 1;
	if(getenv("SLEEP"))usleep(atoi(getenv("SLEEP")));if(thr){pthread_create(&th,0,tx,0);pthread_join(th,0);}else tx(0);return 0;}
