/*
 * fuzz/replay.c - runs a fuzz target on input files without libFuzzer,
 * optimised and without sanitizers, printing the CPU seconds of each:
 *   gcc -O2 -std=gnu11 -I include -I . -I lib -include stdio.h \
 *       fuzz/fuzz_world.c fuzz/replay.c lib/[a-z]*.c -lm -o replay_world
 *   ./replay_world fuzz/open/[a-z]*.bin
 * An invariant a target checks still aborts with its message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 20];
    int i;
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        size_t n;
        clock_t c0;
        if (!f) {
            fprintf(stderr, "replay: cannot open %s\n", argv[i]);
            continue;
        }
        n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        c0 = clock();
        LLVMFuzzerTestOneInput(buf, n);
        printf("%s: %.2f s\n", argv[i], (double)(clock() - c0) / CLOCKS_PER_SEC);
    }
    return 0;
}
