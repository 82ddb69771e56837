/* A program with a known call structure, the profile's "done when": three functions, not
 * inlined, that take about 70 %, 20 % and 10 % of the time. Each runs the same dependent
 * multiply-add chain (latency-bound, one iteration costs the same in all three), for 7, 2
 * and 1 units of iterations, interleaved in rounds so that no phase of the run belongs to
 * one function. Built with -DFAST, `heavy` does half its iterations: the 70 % function
 * made twice as fast, for a differential profile (its share falls to 7/2 / (7/2+3) ≈ 54 %).
 *
 *   cc -O2 -g -o shares examples/shares.c          ./shares [MILLIONS]
 *   cc -O2 -g -DFAST -o shares-fast examples/shares.c
 *
 * MILLIONS (default 100) is the iterations of all three together, in millions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHAIN(name)                                                   \
    __attribute__((noinline)) uint64_t name(uint64_t n, uint64_t x) { \
        for (uint64_t i = 0; i < n; i++)                              \
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;  \
        return x;                                                     \
    }

CHAIN(heavy)
CHAIN(medium)
CHAIN(light)

#ifdef FAST
#define HEAVY_SHARE 35
#else
#define HEAVY_SHARE 70
#endif

int main(int argc, char **argv) {
    long millions = argc > 1 ? atol(argv[1]) : 100;
    if (millions < 1) {
        fprintf(stderr, "usage: %s [MILLIONS >= 1]\n", argv[0]);
        return 2;
    }
    const uint64_t rounds = 100, unit = (uint64_t)millions * 1000000 / rounds / 100;
    uint64_t x = 1;
    for (uint64_t r = 0; r < rounds; r++) {
        x = heavy(HEAVY_SHARE * unit, x);
        x = medium(20 * unit, x);
        x = light(10 * unit, x);
    }
    printf("%llu\n", (unsigned long long)(x & 0xff));
    return 0;
}
