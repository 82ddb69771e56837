/* A branchy kernel over the same values in sorted or shuffled order: the program of
 * issue 11's "done when". Sorted, the branch `v[i] < n/2` is taken for the first half and
 * not after, and a predictor learns it (≈ 0 mispredictions per element); shuffled, it is
 * a coin toss (≈ 0.5 per element). Only the order differs: the same values, the same
 * work.
 *
 *   cc -O2 -o branchy examples/branchy.c
 *   ./branchy sorted [N]     ./branchy shuffled [N]      (N = 1000000 by default)
 *
 * The kept values are stored at a data-dependent index, which keeps the compiler from
 * turning the branch into a conditional move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "sorted") != 0 && strcmp(argv[1], "shuffled") != 0)) {
        fprintf(stderr, "usage: %s sorted|shuffled [N]\n", argv[0]);
        return 2;
    }
    long n = argc > 2 ? atol(argv[2]) : 1000000;
    if (n < 1) {
        fprintf(stderr, "N must be at least 1\n");
        return 2;
    }
    long *v = malloc(n * sizeof *v), *kept = malloc(n * sizeof *kept);
    if (!v || !kept) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long i = 0; i < n; i++) v[i] = i;
    if (strcmp(argv[1], "shuffled") == 0) {
        unsigned long long s = 0x9E3779B97F4A7C15ull;
        for (long i = n - 1; i > 0; i--) { /* Fisher-Yates with a 64-bit LCG */
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            long j = (long)((s >> 33) % (unsigned long long)(i + 1));
            long t = v[i]; v[i] = v[j]; v[j] = t;
        }
    }
    long k = 0;
    for (long i = 0; i < n; i++) {
        if (v[i] < n / 2) kept[k++] = v[i];
    }
    long sum = 0;
    for (long i = 0; i < k; i++) sum += kept[i];
    printf("%ld %ld\n", k, sum);
    free(v);
    free(kept);
    return 0;
}
