/*
 * gas_collide.c - collision processing in the event-driven gas: the
 * impulse of a pair with a rotor or of a wall, and a particle's move to
 * the next cell (two discs: gas_collide.h).
 */
#include <float.h>
#include <math.h>
#include "detmath.h"
#include "kinetics_impl.h"
#include "gas_impl.h"
#include "gas_collide.h"
#include "gas_hold.h"

/* A rotor pair event is a contact when the gap is below this (relative). */
#define CONTACT_TOL 1e-9

/* Largest gap [m] that counts as a rotor contact for bodies of size len
 * whose coordinates, and speeds times the time, are of size pos:
 * CONTACT_TOL of the size, or for bodies too small for that the rounding
 * of those (where the root finders stop making progress). */
static double contact_tol(double len, double pos)
{
    return fmax(CONTACT_TOL * len, 16.0 * DBL_EPSILON * (pos + len));
}

void gas_ke_accumulate(magdyn_gas *g) { ke_accumulate(g); }

/* One body of a colliding pair, as its impulses see it. */
typedef struct {
    gas_particle *p;
    double *w;        /* its spin [rad/s] (a zero for a disc) */
    double im, ii;    /* inverse mass [1/kg] and inverse moment of inertia [1/(kg m^2)] */
    double l;         /* the touching end's arm [m] */
} pair_side;

/* An impulse J [N s] along n on the end of side 1 (arm k1 across n), -J on
 * side 2's (arm k2): the velocity change of every impulse of a pair. */
static void push_pair(const pair_side *s1, double k1, const pair_side *s2, double k2, double nx, double ny,
                      double J)
{
    gas_particle *p = s1->p, *q = s2->p;
    p->vx += J * s1->im * nx; p->vy += J * s1->im * ny; *s1->w += J * k1 * s1->ii;
    q->vx -= J * s2->im * nx; q->vy -= J * s2->im * ny; *s2->w -= J * k2 * s2->ii;
}

/*
 * A pair with a rotor that an inelastic impulse leaves closing, or
 * separating no faster than the rounding of its velocities, at the contact
 * (vn = n.(v1 - v2) + w1 k1 - w2 k2 < floor): restitution 0 cancels the
 * approach only to rounding, the pair search finds the contact again at
 * once, and with a near-zero approach its impulse rounds away, at the same
 * instant forever (MAGDYN_ENOCONV after 9 collisions of 100 rotors at
 * restitution 0).  As unstick_discs: the pair leaves at the pair search's
 * rounding speed floor = 4 eps (|v1| + |v2| + |w1 l1| + |w2 l2|) (1 +
 * pos / d) by an impulse along n (pos_d = pos / d, as there: two ends
 * separating at 1.2e-15 m/s were found approaching at once, again and
 * again, with the speed term alone; fuzz/corpus/gas/
 * regress-rotor-touch.bin).  Only for restitution below 1, where it is
 * needed: elastic runs stay as they are.  Returns the impulse given to
 * body 1 [N s].
 */
static double unstick_pair(double nx, double ny, const pair_side *s1, double k1, const pair_side *s2, double k2,
                           double pos_d)
{
    const gas_particle *p = s1->p, *q = s2->p;
    double w1 = *s1->w, w2 = *s2->w;
    double vn = nx * (p->vx - q->vx) + ny * (p->vy - q->vy) + w1 * k1 - w2 * k2;
    double floor = 4.0 * DBL_EPSILON * (fabs(p->vx) + fabs(p->vy) + fabs(q->vx) + fabs(q->vy)
                                        + fabs(w1 * s1->l) + fabs(w2 * s2->l)) * (1.0 + pos_d), jimp;
    if (!(vn < floor)) return 0.0;
    jimp = ((floor > 0.0 ? floor : DBL_MIN) - vn) / (s1->im + s2->im + k1 * k1 * s1->ii + k2 * k2 * s2->ii);
    push_pair(s1, k1, s2, k2, nx, ny, jimp);
    return jimp;
}

/* The closing speed of the ends a of k and b of j, at separation (ex, ey)
 * from b's centre to a's: the normal velocity of mdk_impulse, -n.(v_a - v_b). */
static double closing_speed(const magdyn_gas *g, int k, int j, mdk_arm a, mdk_arm b,
                            double ex, double ey)
{
    const gas_particle *p = &g->p[k], *q = &g->p[j];
    double d = md_hypot(ex, ey), nx = ex / d, ny = ey / d;
    double ka = a.l * (md_cos(a.th) * ny - md_sin(a.th) * nx), kb = b.l * (md_cos(b.th) * ny - md_sin(b.th) * nx);
    return -(nx * (p->vx - q->vx) + ny * (p->vy - q->vy) + a.om * ka - b.om * kb);
}

/*
 * The relative normal acceleration g'' [m/s^2] of the gap between the ends
 * a of k and b of j in free flight, at separation (ex, ey) from b's end to
 * a's: each end centre turns on a circle (acceleration -om^2 l u), and
 * the tangential sliding of one over the other bends the gap up by
 * v_t^2 / |d|.  Below zero the spin presses the ends together: only a
 * lasting contact force keeps them apart.
 */
static double gap_acceleration(const magdyn_gas *g, int k, int j, mdk_arm a, mdk_arm b, double ex,
                               double ey)
{
    const gas_particle *p = &g->p[k], *q = &g->p[j];
    double d = md_hypot(ex, ey), nx = ex / d, ny = ey / d;
    double ca = md_cos(a.th), sa = md_sin(a.th), cb = md_cos(b.th), sb = md_sin(b.th);
    double ax = -a.om * a.om * a.l * ca + b.om * b.om * b.l * cb;
    double ay = -a.om * a.om * a.l * sa + b.om * b.om * b.l * sb;
    double vx = p->vx - a.om * a.l * sa - (q->vx - b.om * b.l * sb);
    double vy = p->vy + a.om * a.l * ca - (q->vy + b.om * b.l * cb);
    double vt = vx * -ny + vy * nx;
    return nx * ax + ny * ay + vt * vt / d;
}

/*
 * The extra separation of an inelastic collision of the ends a of k and b
 * of j, which closed at vin > 0, when after its impulse the spin presses
 * their gap shut (g'' < 0).  Left with the separation e vin, such a pair
 * comes back after 2 e vin / |g''|, and again, ever sooner: inelastic
 * collapse onto an enduring contact, which hard bodies can only hold by a
 * contact force (millions of bounces below the root finders' resolution,
 * or time stuck at one instant; fuzz/corpus/gas/regress-*pressed*).  As in the TC model (Luding
 * and McNamara 1998), whose contact duration t_c makes a collision within
 * t_c of the last one elastic, a pressed contact is not slowed below the
 * speed that keeps it apart for t_c, v_p = |g''| t_c / 2: it leaves at
 * least at min(vin, v_p), by a further impulse along n.  The pair's
 * restitution stays at most 1, so energy is never gained; a pressed pair
 * bounces elastically about once per t_c until the spin releases it, the
 * bounded stand-in for the contact force (a soft contact of duration t_c
 * under that load stores energy of the same order, m (g'' t_c)^2).
 * Unpressed contacts and elastic gases are untouched.  The arms a and b
 * give the ends' angles; the spins are read from the sides s1 (k) and s2
 * (j), after the impulse.  Returns the impulse given to k [N s].
 */
static double hold_pressed(magdyn_gas *g, int k, int j, mdk_arm a, mdk_arm b, double ex, double ey, double vin,
                           const pair_side *s1, double k1, const pair_side *s2, double k2)
{
    double d = md_hypot(ex, ey), nx = ex / d, ny = ey / d, vout, gpp, want, jimp;
    if (!(vin > 0.0) || !(g->t_contact > 0.0)) return 0.0;
    a.om = *s1->w;
    b.om = *s2->w;
    gpp = gap_acceleration(g, k, j, a, b, ex, ey);
    if (!(gpp < 0.0)) return 0.0;
    want = fmin(vin, -0.5 * gpp * g->t_contact);
    vout = -closing_speed(g, k, j, a, b, ex, ey);
    if (!(vout < want)) return 0.0;
    jimp = (want - vout) / (s1->im + s2->im + k1 * k1 * s1->ii + k2 * k2 * s2->ii);
    push_pair(s1, k1, s2, k2, nx, ny, jimp);
    return jimp;
}

/*
 * Whether the contact of the ends a of k and b of j is a pressed one
 * struck again within t_c, too slowly to be kept apart for t_c (closing
 * below |g''| t_c / 2): the TC model makes the repeat elastic, so that
 * hold_pressed cannot raise its speed, and the pair bounced at the same
 * small speed every 2 v / |g''| (every 3.6e-9 s, 1.3e6 collisions;
 * fuzz/corpus/gas/regress-pressed-repeat.bin).  Such a contact endures:
 * it is held (hold_pair).
 */
static int pressed_repeat(const magdyn_gas *g, int k, int j, mdk_arm a, mdk_arm b, double ex,
                          double ey)
{
    double gpp;
    if (!(md_hypot(ex, ey) > 0.0) || tc_restitution(g, k, j, g->e_pair) != 1.0) return 0;
    gpp = gap_acceleration(g, k, j, a, b, ex, ey);
    return gpp < 0.0 && closing_speed(g, k, j, a, b, ex, ey) < -0.5 * gpp * g->t_contact;
}

/* Whether the ends a of k and b of j approach at their contact. */
static int approaching_ends(const magdyn_gas *g, int k, int j, mdk_arm a, mdk_arm b,
                            double ex, double ey)
{
    return closing_speed(g, k, j, a, b, ex, ey) > 0.0;
}

/* The separations of the ends a of k and b of j: vector (x, y) from b to
 * a, its length dist and the gap dist - (radius sum) [m]. */
typedef struct {
    double x[2][2], y[2][2], dist[2][2], gap[2][2];
} end_separations;

/*
 * A double contact: the nearest end pair (ba, bb) separates, and another
 * pair may touch too (two rotors meeting end to end on both sides at once,
 * mirror images of each other; a disc between the ends of a rotor).  The
 * event stands for the contact the pair search found, an approaching one:
 * of the end pairs within tol, the one closing fastest is struck, and the
 * other, if still closing, at the same instant next (simultaneous contacts
 * taken one at a time, as event-driven hard-body dynamics does).  Striking
 * the separating pair instead gave no impulse, and the search found the
 * closing contact again at once, forever (MAGDYN_ENOCONV; fuzz/corpus/gas/
 * regress-rotor-double-contact.bin).  Leaves the choice alone when no
 * other pair within tol closes.
 */
static void double_contact(const magdyn_gas *g, int k, int j, const mdk_arm *ak, int nk, const mdk_arm *aj,
                           int nj, const end_separations *sep, double tol, int *ba, int *bb, double *ex,
                           double *ey)
{
    double best = 0.0;
    int a, b;
    for (a = 0; a < nk; a++)
        for (b = 0; b < nj; b++) {
            double x1 = sep->x[a][b], y1 = sep->y[a][b], u;
            if (!(sep->gap[a][b] <= tol) || !(sep->dist[a][b] > 0.0)) continue;
            u = closing_speed(g, k, j, ak[a], aj[b], x1, y1);
            if (u > best) { best = u; *ba = a; *bb = b; *ex = x1; *ey = y1; }
        }
}

/* At most this many end pairs of two bodies touch at once (two rotors: 2 x 2). */
#define MAX_TOUCH 4

/* The end pairs of k and j in contact at once, as an inelastic collision
 * solves them together: normal n (from j to k) and arms k1, k2 of each. */
typedef struct {
    int m;
    int held;         /* the pair comes out of a hold (hold_pair) */
    double nx[MAX_TOUCH], ny[MAX_TOUCH], k1[MAX_TOUCH], k2[MAX_TOUCH];
    double gap[MAX_TOUCH];   /* [m], below zero where they overlap */
} touch_set;

/*
 * Solves W_SS x_S = -vn_S for the contacts in the set S (bit mask) by
 * Gaussian elimination with partial pivoting; 0 when W_SS is singular to
 * 1e-12 of its largest diagonal.  x is zero outside S.
 */
static int solve_active(double W[MAX_TOUCH][MAX_TOUCH], const double *vn, int m, unsigned S,
                        double *x)
{
    double A[MAX_TOUCH][MAX_TOUCH + 1], big = 0.0;
    int idx[MAX_TOUCH], n = 0, i, c, r;
    for (i = 0; i < m; i++) {
        x[i] = 0.0;
        if (S >> i & 1u) idx[n++] = i;
        big = fmax(big, W[i][i]);
    }
    for (r = 0; r < n; r++) {
        for (c = 0; c < n; c++) A[r][c] = W[idx[r]][idx[c]];
        A[r][n] = -vn[idx[r]];
    }
    for (c = 0; c < n; c++) {
        int piv = c;
        for (r = c + 1; r < n; r++)
            if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
        if (!(fabs(A[piv][c]) > 1e-12 * big)) return 0;
        for (i = 0; i <= n; i++) {
            double t = A[c][i];
            A[c][i] = A[piv][i];
            A[piv][i] = t;
        }
        for (r = c + 1; r < n; r++) {
            double f = A[r][c] / A[c][c];
            for (i = c; i <= n; i++) A[r][i] -= f * A[c][i];
        }
    }
    for (r = n - 1; r >= 0; r--) {
        double t = A[r][n];
        for (c = r + 1; c < n; c++) t -= A[r][c] * x[idx[c]];
        x[idx[r]] = t / A[r][r];
    }
    return 1;
}

/*
 * One step of iterative refinement of solve_active's x: W_SS may be near
 * singular (a disc wedged between two ends whose normals are nearly
 * opposite: condition numbers of 1e5 and more), and the residual
 * vn + W x of the first solve is then far above rounding.
 */
static void refine(double W[MAX_TOUCH][MAX_TOUCH], const double *vn, int m, unsigned S, double *x)
{
    double r[MAX_TOUCH], dx[MAX_TOUCH];
    int i, k;
    for (i = 0; i < m; i++) {
        r[i] = vn[i];
        for (k = 0; k < m; k++) r[i] += W[i][k] * x[k];
    }
    if (!solve_active(W, r, m, S, dx)) return;
    for (i = 0; i < m; i++)
        if (S >> i & 1u) x[i] += dx[i];
}

/*
 * The compression impulses of simultaneous frictionless contacts: P >= 0
 * with vn + W P >= 0 and P_i (vn + W P)_i = 0, the linear complementarity
 * problem of Moreau's contact dynamics, solved exactly by trying the
 * active sets, fewest contacts first (W is the contacts' Delassus matrix,
 * symmetric positive semi-definite; with m <= 4 there are at most 16
 * sets).  Returns 0 when no active set solves it (a degenerate W).
 */
static int compression_impulses(double W[MAX_TOUCH][MAX_TOUCH], const double *vn, int m,
                                double *P)
{
    int size, i, k;
    for (size = 1; size <= m; size++)
        for (unsigned S = 1; S < 1u << m; S++) {
            int ok = 1, bits = 0;
            for (i = 0; i < m; i++) bits += S >> i & 1u;
            if (bits != size || !solve_active(W, vn, m, S, P)) continue;
            refine(W, vn, m, S, P);
            for (i = 0; i < m && ok; i++) {
                double w = vn[i];
                for (k = 0; k < m; k++) w += W[i][k] * P[k];
                if (S >> i & 1u) ok = P[i] >= 0.0;
                else ok = w >= -1e-12 * fabs(vn[i]);
            }
            if (ok) return 1;
        }
    return 0;
}


/* Kinetic energy [J] of the velocities u = (v1x, v1y, w1, v2x, v2y, w2)
 * paired with z in the mass metric of k and j: sum m u.z + I u_w z_w. */
static double mass_dot(const magdyn_gas *g, int k, int j, double ii1, double ii2, const double *u,
                       const double *z)
{
    double i1 = ii1 > 0.0 ? 1.0 / ii1 : 0.0, i2 = ii2 > 0.0 ? 1.0 / ii2 : 0.0;
    return g->ev[k].mass * (u[0] * z[0] + u[1] * z[1]) + i1 * u[2] * z[2]
         + g->ev[j].mass * (u[3] * z[3] + u[4] * z[4]) + i2 * u[5] * z[5];
}

/*
 * The velocity change of simultaneous impulses, from v0 to the present
 * velocities of k and j, cut back to the length s that does not raise
 * the kinetic energy, when it would: along the change d the energy is
 * E0 + s b + s^2 a / 2, so s = -2 b / a at most.  Exact impulses never
 * need it (their energy changes by (1 - e^2) / 2 P.vn <= 0), but those of
 * a near singular Delassus matrix are exact only to its condition number
 * (fuzz/corpus/gas/regress-wedge-energy.bin: an elastic double contact
 * gained 1.5e-9 of its energy).  Scaling all impulses alike keeps
 * momentum and angular momentum.  Returns s (1: no cut).
 */
static double energy_cap(magdyn_gas *g, int k, int j, double ii1, double ii2, double *w1,
                         double *w2, const double *v0)
{
    gas_particle *p = &g->p[k], *q = &g->p[j];
    double d[6] = {p->vx - v0[0], p->vy - v0[1], *w1 - v0[2], q->vx - v0[3], q->vy - v0[4],
                   *w2 - v0[5]};
    double a = mass_dot(g, k, j, ii1, ii2, d, d), b = mass_dot(g, k, j, ii1, ii2, d, v0), sc;
    if (!(b + 0.5 * a > 0.0) || !(a > 0.0)) return 1.0;
    sc = b < 0.0 ? fmin(1.0, -2.0 * b / a) : 0.0;
    p->vx = v0[0] + sc * d[0]; p->vy = v0[1] + sc * d[1]; *w1 = v0[2] + sc * d[2];
    q->vx = v0[3] + sc * d[3]; q->vy = v0[4] + sc * d[4]; *w2 = v0[5] + sc * d[5];
    return sc;
}

/*
 * Several end pairs of k and j touching at once (two rotors end to end on
 * both sides, a disc between a rotor's ends), in a gas with restitution
 * below 1: the contacts are struck together, not one after another.
 * Struck one at a time, each impulse can close the other contact again at
 * the same instant, and with the TC model's elastic repeats the two
 * alternate without end (MAGDYN_ENOCONV; fuzz/corpus/kinetics/
 * regress-pressed-rotors.bin).  The compression
 * impulses P solve the complementarity problem above; the contacts then
 * get (1 + e) P (Poisson's restitution), which changes the kinetic energy
 * by (1 - e^2) / 2 P.vn <= 0: kept when elastic, never gained.  Each
 * contact is then left separating at least at the rounding speed
 * (unstick_pair, with pos_d); s1 is k, s2 is j.  Returns the virial sum of the impulses times the
 * centres' separation (dx, dy) [N s m], or NAN when nothing approaches or
 * the problem is degenerate (the caller strikes one contact instead).
 */
static double strike_together(magdyn_gas *g, int k, int j, const touch_set *T, double dx, double dy,
                              const pair_side *s1, const pair_side *s2, double pos_d)
{
    gas_particle *p = s1->p, *q = s2->p;
    double *w1 = s1->w, *w2 = s2->w, ii1 = s1->ii, ii2 = s2->ii;
    double im1 = s1->im, im2 = s2->im, W[MAX_TOUCH][MAX_TOUCH], vn[MAX_TOUCH];
    double P[MAX_TOUCH], e = g->e_pair, virial = 0.0, v0[6];
    int i, c, approach = 0, hold;
    /* struck again within t_c, or out of a hold: held (hold_pair) */
    hold = T->held || tc_restitution(g, k, j, e) == 1.0;
    for (i = 0; i < T->m; i++) {
        vn[i] = T->nx[i] * (p->vx - q->vx) + T->ny[i] * (p->vy - q->vy) + *w1 * T->k1[i] - *w2 * T->k2[i];
        /* a held pair that gave way is brought apart within the next t_c
         * (the speed is below that of the load's approach, |g''| t_c, so
         * the energy still falls; energy_cap sees to it) */
        if (hold && T->gap[i] < 0.0 && g->t_contact > 0.0) vn[i] += T->gap[i] / g->t_contact;
        approach |= vn[i] < 0.0;
        for (c = 0; c < T->m; c++)
            W[i][c] = (im1 + im2) * (T->nx[i] * T->nx[c] + T->ny[i] * T->ny[c]) + ii1 * T->k1[i] * T->k1[c]
                    + ii2 * T->k2[i] * T->k2[c];
    }
    if (!approach || !compression_impulses(W, vn, T->m, P)) return NAN;
    if (hold) e = 0.0;
    v0[0] = p->vx; v0[1] = p->vy; v0[2] = *w1; v0[3] = q->vx; v0[4] = q->vy; v0[5] = *w2;
    for (i = 0; i < T->m; i++) {
        double J = (1.0 + e) * P[i];
        if (!(J > 0.0)) continue;
        p->vx += J * im1 * T->nx[i]; p->vy += J * im1 * T->ny[i]; *w1 += J * ii1 * T->k1[i];
        q->vx -= J * im2 * T->nx[i]; q->vy -= J * im2 * T->ny[i]; *w2 -= J * ii2 * T->k2[i];
        virial += J * (dx * T->nx[i] + dy * T->ny[i]);
    }
    virial *= energy_cap(g, k, j, ii1, ii2, w1, w2, v0);
    for (i = 0; i < T->m; i++) {
        double J = unstick_pair(T->nx[i], T->ny[i], s1, T->k1[i], s2, T->k2[i], pos_d);
        virial += J * (dx * T->nx[i] + dy * T->ny[i]);
    }
    if (hold) gas_hold_pair(g, k, j, g->t_contact);
    return virial;
}

/* Pair collision of k and j now, one of them a rotor (do_pair_discs does
 * two discs); returns 1 if an impulse was applied. */
int gas_do_pair(magdyn_gas *g, int k, int j)
{
    gas_particle *p = &g->p[k], *q = &g->p[j];
    gas_pose ak0 = pose_at(g, k, g->time), aj0 = pose_at(g, j, g->time);
    int rk = g->ev[k].rot, rj = g->ev[j].rot;
    double dx, dy, nx, ny, d, jimp, ke0, e, vin, k1 = 0.0, k2 = 0.0, ii1 = 0.0, ii2 = 0.0;
    double zero1 = 0.0, zero2 = 0.0, *w1 = &zero1, *w2 = &zero2;
    dx = ak0.x - aj0.x; dy = ak0.y - aj0.y;
    if (g->par.periodic) { dx = min_image(dx, g->par.width); dy = min_image(dy, g->par.height); }
    /* the pair search gives a held pair one event, the hold's end (which
     * rounds to a time near it): the pair is released, and looked at */
    int held = gas_held_until(g, k, j) > -INFINITY;
    if (held) gas_hold_pair(g, k, j, -INFINITY);     /* released: held until long ago */
    mdk_arm ak[2], aj[2];
    int nk = arms_of(g, k, g->time, ak), nj = arms_of(g, j, g->time, aj), a, b, ba = 0, bb = 0;
    double s = g->rad[k] + g->rad[j], bestgap = INFINITY, ex = 0, ey = 0;
    /* each end's direction, and each pair of ends' separation, once */
    double ck[2], sk[2], cj[2], sj[2];
    end_separations sep;
    for (a = 0; a < nk; a++) { ck[a] = md_cos(ak[a].th); sk[a] = md_sin(ak[a].th); }
    for (b = 0; b < nj; b++) { cj[b] = md_cos(aj[b].th); sj[b] = md_sin(aj[b].th); }
    for (a = 0; a < nk; a++)
        for (b = 0; b < nj; b++) {
            sep.x[a][b] = dx + ak[a].l * ck[a] - aj[b].l * cj[b];
            sep.y[a][b] = dy + ak[a].l * sk[a] - aj[b].l * sj[b];
            sep.dist[a][b] = md_hypot(sep.x[a][b], sep.y[a][b]);
            sep.gap[a][b] = sep.dist[a][b] - s;
            if (sep.gap[a][b] < bestgap) {
                bestgap = sep.gap[a][b];
                ba = a;
                bb = b;
                ex = sep.x[a][b];
                ey = sep.y[a][b];
            }
        }
    double scale = fabs(ak0.x) + fabs(ak0.y) + fabs(aj0.x) + fabs(aj0.y)
                 + (fabs(p->vx) + fabs(p->vy) + fabs(q->vx) + fabs(q->vy)
                    + fabs(ak[0].l * ak[0].om) + fabs(aj[0].l * aj[0].om)) * fabs(g->time);
    double tol = contact_tol(s + fabs(ak[0].l) + fabs(aj[0].l), scale);
    if (!(bestgap <= tol)) return 0;
    if (rk >= 0) { w1 = &g->rot[rk].omega; ii1 = g->rot[rk].inv_inertia; }
    if (rj >= 0) { w2 = &g->rot[rj].omega; ii2 = g->rot[rj].inv_inertia; }
    if (g->e_pair < 1.0 && nk * nj > 1) {
        touch_set T;
        double virial;
        T.m = 0;
        /* a pair that gave way in a hold, and overlaps still, is held
         * again until it is brought apart: left to bounce elastically by
         * the TC model, a pressed pair never left the overlap (every
         * 2.7e-9 s, 5.7e-9 m deep); and so is a slow pressed repeat */
        T.held = held || bestgap < -tol || pressed_repeat(g, k, j, ak[ba], aj[bb], ex, ey);
        for (a = 0; a < nk; a++)
            for (b = 0; b < nj; b++) {
                double h = sep.dist[a][b];
                if (!(sep.gap[a][b] <= tol) || !(h > 0.0)) continue;
                T.nx[T.m] = sep.x[a][b] / h;
                T.ny[T.m] = sep.y[a][b] / h;
                T.k1[T.m] = ak[a].l * (ck[a] * T.ny[T.m] - sk[a] * T.nx[T.m]);
                T.k2[T.m] = aj[b].l * (cj[b] * T.ny[T.m] - sj[b] * T.nx[T.m]);
                T.gap[T.m] = sep.gap[a][b];
                T.m++;
            }
        if (T.m > 1 || (T.held && T.m == 1)) {
            ke0 = ke_of(g, k) + ke_of(g, j);
            pair_side s1 = {p, w1, g->ev[k].inv_mass, ii1, ak[0].l}, s2 = {q, w2, g->ev[j].inv_mass, ii2, aj[0].l};
            virial = strike_together(g, k, j, &T, dx, dy, &s1, &s2, pos_scale(g, ak0, aj0) / s);
            if (!isnan(virial)) {
                pair_applied(g, k, j, ak0, aj0, ke0, virial);
                return 1;
            }
        }
    }
    if (nk * nj > 1 && !approaching_ends(g, k, j, ak[ba], aj[bb], ex, ey))
        double_contact(g, k, j, ak, nk, aj, nj, &sep, tol, &ba, &bb, &ex, &ey);
    d = md_hypot(ex, ey);
    if (!(d > 0.0)) return 0;
    nx = ex / d; ny = ey / d;
    if (rk >= 0) k1 = ak[ba].l * (ck[ba] * ny - sk[ba] * nx);
    if (rj >= 0) k2 = aj[bb].l * (cj[bb] * ny - sj[bb] * nx);
    ke0 = ke_of(g, k) + ke_of(g, j);
    e = g->e_pair;
    if (e < 1.0) e = tc_restitution(g, k, j, e);
    vin = e < 1.0 ? closing_speed(g, k, j, ak[ba], aj[bb], ex, ey) : 0.0;
    jimp = mdk_impulse(nx, ny, e, g->ev[k].inv_mass, ii1, k1, &p->vx, &p->vy, w1,
                       g->ev[j].inv_mass, ii2, k2, &q->vx, &q->vy, w2);
    {
        pair_side s1 = {p, w1, g->ev[k].inv_mass, ii1, ak[ba].l}, s2 = {q, w2, g->ev[j].inv_mass, ii2, aj[bb].l};
        if (e < 1.0) jimp += hold_pressed(g, k, j, ak[ba], aj[bb], ex, ey, vin, &s1, k1, &s2, k2);
        if (g->e_pair < 1.0) jimp += unstick_pair(nx, ny, &s1, k1, &s2, k2, pos_scale(g, ak0, aj0) / s);
    }
    if (!(jimp > 0.0)) return 0;
    pair_applied(g, k, j, ak0, aj0, ke0, jimp * (dx * nx + dy * ny));
    return 1;
}

/*
 * A body whose wall impulse leaves it approaching, or separating no faster
 * than the rounding of its velocity, vn = n.v + wk < floor: one settled on
 * the wall by inelastic bounces, whose impulse underflowed or rounded away
 * or cancelled the approach to rounding.  The wall search, which rounds
 * differently, would find it in contact again at once, forever.  It leaves
 * instead at the rounding speed floor = 4 eps (|v| + |w| l (1 + |th|)),
 * within rounding of the exact bounce: th, the rod angle, rounds to eps
 * |th| and the wall search turns it by a rounded pi / 2 for the walls
 * in y, which moves the end's normal speed by |w| l eps |th| (a rotor at
 * 142 rad/s, |th| ~ 60, separating at 2e-15 m/s, was found approaching
 * the top wall at once, forever: MAGDYN_ENOCONV; fuzz/corpus/gas/
 * regress-wall-spin.bin).  Returns the impulse given [N s], 0 when the
 * body separates faster.
 */
static double unstick(gas_particle *p, double nx, double ny, double wk, double arm_speed,
                      double angle, double mass)
{
    double vn = nx * p->vx + ny * p->vy + wk;
    double floor = 4.0 * DBL_EPSILON * (fabs(p->vx) + fabs(p->vy) + arm_speed * (1.0 + fabs(angle))), dv;
    if (!(vn < floor)) return 0.0;
    dv = floor > 0.0 ? floor - vn : DBL_MIN - vn;  /* a subnormal velocity: the least normal speed */
    p->vx += dv * nx;
    p->vy += dv * ny;
    return mass * dv;
}

/* Wall collision of k now (wall 0: x = 0, 1: x = width, 2: y = 0, 3: y = height). */
int gas_do_wall(magdyn_gas *g, int k, int wall, int end)
{
    gas_particle *p = &g->p[k];
    double nx = wall == 0 ? 1.0 : wall == 1 ? -1.0 : 0.0;
    double ny = wall == 2 ? 1.0 : wall == 3 ? -1.0 : 0.0;
    double ke0, jimp, e, k1 = 0.0, ii = 0.0, wz = 0.0, zero = 0.0, vz0 = 0.0, vz1 = 0.0, *w = &wz;
    gas_pose a = pose_at(g, k, g->time);
    int r = g->ev[k].rot;
    if (r >= 0) {
        gas_rotor *q = &g->rot[r];
        double l = end ? -q->half_length : q->half_length, b = g->rad[k];
        double ex = a.x + l * md_cos(a.th), ey = a.y + l * md_sin(a.th);
        double gap = wall == 0 ? ex - b : wall == 1 ? g->par.width - ex - b
                   : wall == 2 ? ey - b : g->par.height - ey - b;
        /* a root search that ran out of steps returns an early time, a
         * lower bound: the end is not at the wall yet, so nothing happens */
        double scale = (wall < 2 ? fabs(a.x) + fabs(p->vx) * fabs(g->time)
                                 : fabs(a.y) + fabs(p->vy) * fabs(g->time))
                     + fabs(q->omega * l) * fabs(g->time);
        if (!(gap <= contact_tol(q->half_length + b, scale))) return 0;
        w = &q->omega; ii = q->inv_inertia;
        k1 = l * (md_cos(a.th) * ny - md_sin(a.th) * nx);
    }
    ke0 = ke_of(g, k);
    e = g->e_wall;
    if (e < 1.0) e = tc_restitution(g, k, -1, e);
    jimp = mdk_impulse(nx, ny, e, g->ev[k].inv_mass, ii, k1, &p->vx, &p->vy, w,
                       0.0, 0.0, 0.0, &vz0, &vz1, &zero);
    jimp += unstick(p, nx, ny, *w * k1, fabs(*w) * (r >= 0 ? g->rot[r].half_length : 0.0), a.th,
                    g->ev[k].mass);
    if (!(jimp > 0.0)) return 0;
    reanchor(g, k, a);
    ke_accumulate(g);
    g->ke_trans += ke_of(g, k) - ke0;
    g->obs_wall_dp += jimp;
    g->link[k].count++;
    if (g->tc_track) g->t_last[k] = g->time;
    g->wall_collisions++; g->obs_wall++;
    return 1;
}

/* k moves to the next cell in direction dir (0-3: +x, -x, +y, -y). */
void gas_do_cell(magdyn_gas *g, int k, int dir)
{
    gas_particle *p = &g->p[k];
    int cx = g->ev[k].cx, cy = g->ev[k].cy;
    cell_remove(g, k);
    /* through a periodic edge: the trajectory moves by the box */
    switch (dir) {
    case 0: if (++cx == g->ncx) { cx = 0; p->x0 -= g->par.width; } break;
    case 1: if (--cx < 0) { cx = g->ncx - 1; p->x0 += g->par.width; } break;
    case 2: if (++cy == g->ncy) { cy = 0; p->y0 -= g->par.height; } break;
    default: if (--cy < 0) { cy = g->ncy - 1; p->y0 += g->par.height; } break;
    }
    cell_insert(g, k, cx, cy);
}
