/* Dependent loads over a working set of a given size, in random or sequential order: the
 * program of the cache-cliff sweep. Each access's address depends on the value the
 * previous one loaded, so accesses cannot overlap and each costs the latency of the
 * level its line is in: time per access steps up where the working set passes L1, L2
 * and the last-level cache.
 *
 *   cc -O2 -o cache examples/cache.c
 *   ./cache rand SIZE [ACCESSES]     ./cache seq SIZE [ACCESSES]
 *   plumb run -L size 16K,64K,256K,1M,8M,64M --operations 8388608 './cache rand {size}'
 *
 * SIZE is a power of two of at least 64 bytes, in bytes or with K, M or G (binary, as
 * lscpu writes cache sizes); ACCESSES is 8388608 (2^23) by default. rand visits the
 * 8-byte slots in the order of a full-period linear congruential generator modulo the
 * slot count (every slot once per period, a different line almost every step, no
 * pattern a prefetcher follows); seq visits them in order. Every slot is written before
 * the accesses, so every page is real (a zero-filled array would be turned into calloc's
 * untouched pages, all backed by the one zero page, and always hit); that costs some
 * milliseconds at 64 MiB. Slot j holds j, and the access adds a[i] - i: the loaded value
 * changes nothing but the dependency. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_size(const char *s, uint64_t *out) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    uint64_t unit = 1;
    if (*end == 'K' || *end == 'k') unit = 1ull << 10, end++;
    else if (*end == 'M') unit = 1ull << 20, end++;
    else if (*end == 'G') unit = 1ull << 30, end++;
    if (end == s || *end != '\0') return -1;
    *out = v * unit;
    return 0;
}

int main(int argc, char **argv) {
    uint64_t size, accesses = 1ull << 23;
    int rand_order = argc > 1 && strcmp(argv[1], "rand") == 0;
    if (argc < 3 || (!rand_order && strcmp(argv[1], "seq") != 0) || parse_size(argv[2], &size) != 0) {
        fprintf(stderr, "usage: %s rand|seq SIZE [ACCESSES]   (SIZE e.g. 64K, 8M)\n", argv[0]);
        return 2;
    }
    if (size < 64 || (size & (size - 1)) != 0) {
        fprintf(stderr, "SIZE must be a power of two of at least 64 bytes, not %s\n", argv[2]);
        return 2;
    }
    if (argc > 3 && parse_size(argv[3], &accesses) != 0) {
        fprintf(stderr, "ACCESSES must be a whole number, not %s\n", argv[3]);
        return 2;
    }
    uint64_t slots = size / sizeof(uint64_t), mask = slots - 1;
    uint64_t *a = malloc(size);
    if (!a) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (uint64_t j = 0; j < slots; j++)
        a[j] = j;
    uint64_t i = 0;
    if (rand_order) {
        /* Hull–Dobell: modulo a power of two, a ≡ 1 (mod 4) and c odd give full period. */
        for (uint64_t n = 0; n < accesses; n++)
            i = (i * 6364136223846793005ull + 1442695040888963407ull + (a[i] - i)) & mask;
    } else {
        for (uint64_t n = 0; n < accesses; n++)
            i = (i + 1 + (a[i] - i)) & mask;
    }
    /* The final index depends on every load: printing it keeps the loop. */
    printf("%llu\n", (unsigned long long)i);
    free(a);
    return 0;
}
