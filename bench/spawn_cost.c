/* The floor: the cost of posix_spawn + waitpid of a program, timed with
 * CLOCK_MONOTONIC around each spawn, as a benchmark harness would time it.
 * Usage: spawn_cost RUNS PROGRAM [ARGS...]; prints the mean and median in ns. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

extern char **environ;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: spawn_cost RUNS PROGRAM [ARGS...]\n"); return 2; }
    int runs = atoi(argv[1]);
    long long *t = malloc(sizeof(long long) * runs);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    for (int i = -3; i < runs; i++) {   /* 3 warm-up spawns */
        pid_t pid; int status;
        long long s = now_ns();
        if (posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ) != 0) { perror("posix_spawn"); return 1; }
        waitpid(pid, &status, 0);
        long long e = now_ns();
        if (i >= 0) t[i] = e - s;
    }
    double sum = 0;
    for (int i = 0; i < runs; i++) sum += t[i];
    qsort(t, runs, sizeof(long long), cmp);
    printf("%.1f %lld\n", sum / runs, t[runs / 2]);
    return 0;
}
