/* The calibration bench's workloads (bench/calibration.sh): `work spin N` runs a
 * dependent arithmetic loop of N steps (CPU-bound); `work walk MIB` follows a random
 * cycle through a buffer of MIB mebibytes (memory-bound: each step a likely cache miss). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t spin(uint64_t n) {
    uint64_t x = 88172645463325252ull;
    for (uint64_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

static uint64_t walk(size_t mib) {
    size_t n = mib * 1024 * 1024 / sizeof(uint32_t);
    uint32_t *next = malloc(n * sizeof(uint32_t));
    if (!next) return 0;
    /* Sattolo's shuffle: one cycle through every slot. */
    for (size_t i = 0; i < n; i++) next[i] = (uint32_t)i;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = n - 1; i > 0; i--) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        size_t j = s % i;
        uint32_t t = next[i]; next[i] = next[j]; next[j] = t;
    }
    uint32_t at = 0;
    for (size_t k = 0; k < n / 4; k++) at = next[at];
    free(next);
    return at;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: work spin N | work walk MIB\n");
        return 2;
    }
    uint64_t arg = strtoull(argv[2], NULL, 10);
    uint64_t r = strcmp(argv[1], "spin") == 0 ? spin(arg) : walk((size_t)arg);
    return r == 1 ? 1 : 0; /* uses the result; never 1 in practice */
}
