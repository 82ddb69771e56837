/* A keep-alive HTTP/1.1 server whose every answer costs a set amount of CPU: the
 * "server made 20 % slower" of bench/load-compare.sh. One thread, epoll; each request
 * (a head ending in a blank line; bodies are not expected) spins for WORK_US
 * microseconds on the monotonic clock, then gets a fixed 2-byte answer.
 *
 *   cc -O2 -o spin-server bench/spin-server.c && ./spin-server PORT WORK_US
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char ANSWER[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void spin(double us) {
    double end = now_us() + us;
    while (now_us() < end) {
    }
}

/* Per connection: how far into "\r\n\r\n" the last read ended. */
static int matched[65536];

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s PORT WORK_US\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]);
    double work = atof(argv[2]);
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1024)) {
        perror("bind/listen");
        return 1;
    }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = ls}, evs[256];
    epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
    char buf[65536];
    for (;;) {
        int n = epoll_wait(ep, evs, 256, -1);
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == ls) {
                int c = accept(ls, NULL, NULL);
                if (c < 0 || c >= 65536) {
                    if (c >= 0) close(c);
                    continue;
                }
                setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                matched[c] = 0;
                struct epoll_event ce = {.events = EPOLLIN, .data.fd = c};
                epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
                continue;
            }
            ssize_t got = read(fd, buf, sizeof buf);
            if (got <= 0) {
                if (got < 0 && errno == EINTR) continue;
                close(fd);
                continue;
            }
            static const char END[] = "\r\n\r\n";
            for (ssize_t k = 0; k < got; k++) {
                matched[fd] = buf[k] == END[matched[fd]] ? matched[fd] + 1 : (buf[k] == '\r');
                if (matched[fd] == 4) {
                    matched[fd] = 0;
                    spin(work);
                    if (write(fd, ANSWER, sizeof ANSWER - 1) < 0) break;
                }
            }
        }
    }
}
