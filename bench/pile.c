/*
 * pile.c (bench) - many magnets at rest: piles of N 10 mm N42 cubes dropped
 * on a plate (examples/scene.h: gravity, restitution 0.3, friction 0.5,
 * point dipoles), a column of 10 magnets and a tower of 10 plain boxes.
 * For each: the simulated time until every magnet sleeps, the CPU seconds
 * that took, CPU seconds per simulated second, and the energy balance.
 * Run: make bench && bench/pile [--extended] [--chunk S] [--cpu S] [--time S]
 *                               [--contact-tol M] [--start-weight W] [--model-tol T]
 *                               [N[/SEED] | N/A-B | column[/N] | tower[/N] ...]
 * (default: piles of 8 (seeds 1-12, with the medians over them) at the
 * world's defaults and again at contact_tol 1e-7 m and a contact step
 * weight of 0.45 (the theta-method, magdyn_world_new(3)), piles of 30 and
 * 100, the column and the tower; --contact-tol and --start-weight set
 * those two parameters, --model-tol the extended model's tolerance; N/A-B runs piles of N for seeds A to B;
 * sweeps/ct is the solver's Gauss-Seidel sweeps per contact step, unconv
 * the contact solves that stopped at solver_iterations short of their
 * tolerance (magdyn_world_stats); overlap_m is the deepest overlap of two
 * magnets at the end [m], off the
 * number of magnets thrown off the plate, below its top by more than
 * 10 cm: they fall for ever, so the pile never comes to rest)
 * The world advances in chunks of 0.01 s (--chunk changes it; the
 * trajectory depends on it, since each advance ends a step at its t_end).
 * A run stops at 10 s simulated (--time) or 120 s of CPU (--cpu), whichever
 * comes first.  --extended uses the exact field of uniformly magnetised
 * boxes (MAGDYN_MODEL_CUBOID) instead of point dipoles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>
#include "../examples/scene.h"

static double chunk = 0.01, cpu_max = 120.0, t_max = 10.0, contact_tol = 0.0, start_weight = -1.0;
static double model_tol = 0.0;   /* 0: the scene's */
static int extended;   /* the exact field of uniformly magnetised boxes */

static double cpu(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* Runs one scene; *cpu_s and *rest_s (-1: never at rest) receive its
 * figures when not NULL. */
static void run(const char *name, int n, int kind, unsigned long long seed, double *cpu_s,
                double *rest_s)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w;
    if (extended) p.model = MAGDYN_MODEL_CUBOID;
    if (model_tol > 0.0) p.model_tol = model_tol;
    if (contact_tol > 0.0) {
        p.contact_tol = contact_tol;
        p.contact_margin = fmax(p.contact_margin, contact_tol);
    }
    if (start_weight >= 0.0) p.contact_start_weight = start_weight;
    w = magdyn_world_new(&p);
    if (!w) {
        fprintf(stderr, "pile: the world refuses these parameters (contact_start_weight is 0 .. 0.45)\n");
        exit(2);
    }
    magdyn_world_stats st;
    magdyn_status s = MAGDYN_OK;
    double t = 0, c0, c, e0, rest = -1, bal;
    int placed, i, off = 0;
    scene_plate(w);
    placed = kind == 0 ? scene_pile(w, n, seed) : kind == 1 ? scene_column(w, n) : scene_tower(w, n);
    e0 = magdyn_world_energy(w);
    c0 = cpu();
    while (t < t_max - 0.5 * chunk && cpu() - c0 < cpu_max) {
        t += chunk;
        if ((s = magdyn_world_advance(w, t)) != MAGDYN_OK) break;
        magdyn_world_get_stats(w, &st);
        if (st.asleep) { rest = t; break; }
    }
    c = cpu() - c0;
    magdyn_world_get_stats(w, &st);
    for (i = 0; i < magdyn_world_count(w); i++) {
        magdyn_magnet m;
        if (magdyn_world_get(w, i, &m) == MAGDYN_OK && m.position.z < -0.1) off++;
    }
    /* what the losses do not account for, relative to the energy that left */
    bal = (magdyn_world_energy(w) - (e0 - st.energy_restitution - st.energy_friction))
        / fmax(fabs(e0), st.energy_restitution + st.energy_friction);
    printf("%-8s %5d %9.3f %9s %9.3f %9.3f %10lld %10lld %9.1f %7lld %9.2e %9.2e %3d %s\n", name, placed,
           magdyn_world_time(w), rest >= 0 ? "yes" : "no", c, c / magdyn_world_time(w), st.steps,
           st.contact_steps, st.contact_steps > 0 ? (double)st.solver_sweeps / st.contact_steps : 0.0,
           st.solver_unconverged, bal, scene_worst_overlap(w), off, s == MAGDYN_OK ? "" : magdyn_strerror(s));
    if (extended)
        printf("%-8s extended pair forces: %lld computed, %lld reused (%.0f%%)\n", "", st.pairs_exact,
               st.pairs_reused, 100.0 * st.pairs_reused / fmax(1.0, (double)(st.pairs_exact + st.pairs_reused)));
    fflush(stdout);
    magdyn_world_free(w);
    if (cpu_s) *cpu_s = c;
    if (rest_s) *rest_s = rest;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, by_value);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Piles of n for the seeds first..last, then the medians over them. */
static void run_seeds(int n, unsigned long long first, unsigned long long last)
{
    int count = (int)(last - first + 1), k, rested = 0;
    double mid, *cpu_s = malloc((size_t)count * sizeof *cpu_s), *rest_s = malloc((size_t)count * sizeof *rest_s);
    if (count < 1 || !cpu_s || !rest_s) {
        free(cpu_s);
        free(rest_s);
        fprintf(stderr, "pile: out of memory\n");
        return;
    }
    for (k = 0; k < count; k++) {
        double c = 0.0, r = -1.0;
        run("pile", n, 0, first + (unsigned long long)k, &c, &r);
        cpu_s[k] = c;
        if (r >= 0) rest_s[rested++] = r;
    }
    mid = median(cpu_s, count);   /* sorts cpu_s */
    printf("piles of %d, seeds %llu-%llu: %d of %d at rest; cpu_s median %.3f (min %.3f, max %.3f)", n,
           first, last, rested, count, mid, cpu_s[0], cpu_s[count - 1]);
    if (rested > 0) printf("; sim_s to rest median %.3f", median(rest_s, rested));
    printf("\n");
    free(cpu_s);
    free(rest_s);
}

int main(int argc, char **argv)
{
    int i = 1;
    for (;;) {
        double v;
        if (argc > 1 && strcmp(argv[1], "--extended") == 0) {
            extended = 1;
            argv++;
            argc--;
            continue;
        }
        if (argc <= 2 || (strcmp(argv[1], "--chunk") != 0 && strcmp(argv[1], "--cpu") != 0
                          && strcmp(argv[1], "--time") != 0 && strcmp(argv[1], "--contact-tol") != 0
                          && strcmp(argv[1], "--start-weight") != 0 && strcmp(argv[1], "--model-tol") != 0))
            break;
        v = atof(argv[2]);
        if (strcmp(argv[1], "--start-weight") == 0) {
            if (!(v >= 0.0 && v <= 0.45)) {
                fprintf(stderr, "pile: --start-weight takes 0 to 0.45\n");
                return 2;
            }
            start_weight = v;
            argv += 2;
            argc -= 2;
            continue;
        }
        if (!(v > 0.0)) {
            fprintf(stderr, "pile: %s needs a positive number\n", argv[1]);
            return 2;
        }
        if (strcmp(argv[1], "--chunk") == 0) chunk = v;
        else if (strcmp(argv[1], "--cpu") == 0) cpu_max = v;
        else if (strcmp(argv[1], "--contact-tol") == 0) contact_tol = v;
        else if (strcmp(argv[1], "--model-tol") == 0) model_tol = v;
        else t_max = v;
        argv += 2;
        argc -= 2;
    }
    if (extended)
        printf("extended model (MAGDYN_MODEL_CUBOID, model_tol %g)\n",
               model_tol > 0.0 ? model_tol : scene_params().model_tol);
    printf("%-8s %5s %9s %9s %9s %9s %10s %10s %9s %7s %9s %9s %3s\n", "scene", "N", "sim_s", "at_rest",
           "cpu_s", "cpu/sim", "rk_steps", "ct_steps", "sweeps/ct", "unconv", "E_unacc", "overlap_m", "off");
    if (argc > 1) {
        /* N, or N/SEED for another random drop; column or tower for those */
        for (; i < argc; i++) {
            const char *slash = strchr(argv[i], '/');
            int many = slash ? atoi(slash + 1) : 10;
            if (strncmp(argv[i], "column", 6) == 0) run("column", many, 1, 0, NULL, NULL);
            else if (strncmp(argv[i], "tower", 5) == 0) run("tower", many, 2, 0, NULL, NULL);
            else if (slash && strchr(slash, '-')) {
                unsigned long long first = strtoull(slash + 1, NULL, 10);
                unsigned long long last = strtoull(strchr(slash, '-') + 1, NULL, 10);
                if (first < 1 || last < first || last - first > 9999) {
                    fprintf(stderr, "pile: %s: seeds A-B with 1 <= A <= B\n", argv[i]);
                    return 2;
                }
                run_seeds(atoi(argv[i]), first, last);
            } else run("pile", atoi(argv[i]), 0, slash ? strtoull(slash + 1, NULL, 10) : 1, NULL, NULL);
        }
        return 0;
    }
    run_seeds(8, 1, 12);
    contact_tol = 1e-7;
    start_weight = 0.45;
    printf("contact_tol %g m, contact_start_weight %g:\n", contact_tol, start_weight);
    run_seeds(8, 1, 12);
    contact_tol = 0.0;
    start_weight = -1.0;
    run("pile", 30, 0, 1, NULL, NULL);
    run("pile", 100, 0, 1, NULL, NULL);
    run("column", 10, 1, 0, NULL, NULL);
    run("tower", 10, 2, 0, NULL, NULL);
    return 0;
}
