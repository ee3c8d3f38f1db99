"""Compiled core of the exact event-driven engine (numba, cached to disk; also runs without JIT).

The entry points (``run``, ``run_batch_*``) release the GIL (``nogil``), so that a server's
simulation threads and a player's look-ahead run truly in parallel.

All JIT code lives in this one module on purpose: numba's on-disk cache is invalidated by changes
to the file of the compiled function only, so a helper in another module could leave a stale cache.

Model (DESIGN.md "Physics model"). Disk i has a reference time t0, centre (x, y), velocity (vx, vy)
and speed sp at t0. Until it stops at tstop = t0 + sp/a (a = mu*g) its centre is

    p(t) = p0 + v0 * f(tau),   f(tau) = tau - a*tau^2 / (2*sp),   tau = t - t0,

a straight path travelled ever more slowly, so events with fixed objects (rails, pocket holes,
resting disks, supports) are roots of quadratics in f and the time follows in closed form; two
moving disks meet at a root of a quartic in t, found on monotone pieces (split at the roots of the
derivative, itself split at the roots of a quadratic) by a bracketing Illinois iteration.

Arrays, not objects: S (N x 10 floats) and L (N x 4 ints) hold the state; a pair table holds the
next event time of every pair and a row holds every disk's own next event (stop, rail or pocket);
after an event only the rows of the disks involved are recomputed. Ties are resolved in a fixed
order: own events by disk index before pair events by (i, j). Nothing allocates per event.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

# --- column layout of the state arrays -------------------------------------------------------
T0, X, Y, VX, VY, SP, TSTOP, RAD, MASS, PTIME = range(10)
N_SCOL = 10
LAYER, STATUS, POCKET, ORDER = range(4)
N_LCOL = 4
# disk status
ON_BOARD, IN_POCKET, OFF_BOARD = 0, 1, 2
# logged event kinds (EventKind order)
DISK_DISK, DISK_RAIL, POCKETED, STOPPED, DROPPED, FLEW_OFF = range(6)
# own (single-disk) events
OWN_STOP, OWN_RAIL, OWN_POCKET = 1, 2, 3
# rail sides, in Side order: south, west, north, east
SOUTH, WEST, NORTH, EAST = range(4)
# parameter vector
P_DECEL, P_E_DISK, P_E_RAIL, P_HALF, P_POCKET_R, P_FLY_V0, P_FLY_V1, P_FLY_PMAX = range(8)
N_PARAMS = 8
# event log rows: floats (time, xi, yi, vxi, vyi, xj, yj, vxj, vyj), ints (kind, i, j, aux, li, lj)
N_EVF, N_EVI = 9, 6
# outputs: ints (n_log, n_processed, truncated, first_contact, n_rails_before), floats (fc time)
N_OUTI, N_OUTF = 5, 1
MAX_RAILS_BEFORE = 16

TOUCH = 1e-10
"""Contact tolerance, m: disks this close count as touching (then closing = impact now)."""
STICK_SPEED = 1e-4
"""Normal approach speed (m/s) below which a pair pressed together by friction slides as one."""
INF = np.inf


@njit(cache=True)
def f_to_tau(f: float, sp: float, decel: float) -> float:
    """Time tau (s) at which a disk of initial speed sp has advanced by path factor f (s)."""
    disc = 1.0 - 2.0 * decel * f / sp
    if disc < 0.0:
        disc = 0.0
    return 2.0 * f / (1.0 + float(np.sqrt(disc)))


@njit(cache=True)
def state_at(S: np.ndarray, i: int, t: float, decel: float) -> tuple[float, float, float, float]:
    """Centre (m) and velocity (m/s) of disk i at time t >= its reference time."""
    sp = S[i, SP]
    x = S[i, X]
    y = S[i, Y]
    if sp == 0.0:
        return x, y, 0.0, 0.0
    vx = S[i, VX]
    vy = S[i, VY]
    if t >= S[i, TSTOP]:
        tau = sp / decel
        f = tau - 0.5 * decel * tau * tau / sp
        return x + vx * f, y + vy * f, 0.0, 0.0
    tau = t - S[i, T0]
    if tau < 0.0:
        tau = 0.0
    f = tau - 0.5 * decel * tau * tau / sp
    k = 1.0 - decel * tau / sp
    return x + vx * f, y + vy * f, vx * k, vy * k


@njit(cache=True)
def set_motion(
    S: np.ndarray, i: int, t: float, x: float, y: float, vx: float, vy: float, decel: float
) -> None:
    """Make (t, x, y, vx, vy) the reference state of disk i (SI units)."""
    sp = np.sqrt(vx * vx + vy * vy)
    S[i, T0] = t
    S[i, X] = x
    S[i, Y] = y
    if sp == 0.0:
        S[i, VX] = 0.0
        S[i, VY] = 0.0
        S[i, SP] = 0.0
        S[i, TSTOP] = INF
    else:
        S[i, VX] = vx
        S[i, VY] = vy
        S[i, SP] = sp
        S[i, TSTOP] = t + sp / decel


@njit(cache=True)
def rebase(S: np.ndarray, i: int, t: float, decel: float) -> None:
    """Advance disk i's reference state to time t (s)."""
    x, y, vx, vy = state_at(S, i, t, decel)
    set_motion(S, i, t, x, y, vx, vy, decel)


# --- roots --------------------------------------------------------------------------------------
@njit(cache=True)
def quad_roots_in(a: float, b: float, c: float, lo: float, hi: float) -> tuple[int, float, float]:
    """Real roots of a*t^2 + b*t + c strictly inside (lo, hi): (count, first, second), ascending;
    unused slots hold hi."""
    if a == 0.0:
        if b != 0.0:
            r = -c / b
            if lo < r < hi:
                return 1, r, hi
        return 0, hi, hi
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, hi, hi
    sq = np.sqrt(disc)
    q = -0.5 * (b + sq) if b >= 0.0 else -0.5 * (b - sq)
    r1 = q / a
    r2 = c / q if q != 0.0 else r1
    if r2 < r1:
        r1, r2 = r2, r1
    n = 0
    o1 = hi
    o2 = hi
    if lo < r1 < hi:
        o1 = r1
        n = 1
    if lo < r2 < hi and r2 != r1:
        if n == 0:
            o1 = r2
        else:
            o2 = r2
        n += 1
    return n, o1, o2


@njit(cache=True)
def cubic_val(c3: float, c2: float, c1: float, c0: float, t: float) -> float:
    """c3*t^3 + c2*t^2 + c1*t + c0 (Horner)."""
    return ((c3 * t + c2) * t + c1) * t + c0


@njit(cache=True)
def cubic_root(
    c3: float, c2: float, c1: float, c0: float, a: float, b: float, fa: float, fb: float
) -> float:
    """A root of the cubic in [a, b], given opposite signs fa, fb at the ends (Illinois)."""
    side = 0
    for _ in range(100):
        c = (a * fb - b * fa) / (fb - fa)
        if not a < c < b:
            c = 0.5 * (a + b)
            if not a < c < b:
                break
        fc = cubic_val(c3, c2, c1, c0, c)
        if fc == 0.0:
            return c
        if (fc > 0.0) == (fa > 0.0):
            a = c
            fa = fc
            if side == -1:
                fb *= 0.5
            side = -1
        else:
            b = c
            fb = fc
            if side == 1:
                fa *= 0.5
            side = 1
        if b - a <= 1e-15 * (1.0 + b):
            break
    return 0.5 * (a + b)


@njit(cache=True)
def gap_val(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, r2: float, t: float
) -> float:
    """|A + B t + C t^2|^2 - R^2 for the relative motion of two moving disks (m^2)."""
    px = ax + (bx + cx * t) * t
    py = ay + (by + cy * t) * t
    return px * px + py * py - r2


@njit(cache=True)
def first_contact_quartic(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cx: float,
    cy: float,
    rr: float,
    horizon: float,
    tolc: float,
) -> float:
    """First time in [0, horizon] (s) at which two moving disks touch while closing, or inf.

    g(t) = |A + B t + C t^2|^2 - R^2 (a quartic) is split into monotone pieces at the roots of g'
    (a cubic, itself split at the roots of the quadratic g''). On the first decreasing piece that
    starts touching (g <= tolc) the contact is at its start; on the first decreasing piece that
    crosses zero, the contact is the crossing (returned on the g <= 0 side of the bracket).
    """
    r2 = rr * rr
    c3 = 4.0 * (cx * cx + cy * cy)
    c2 = 6.0 * (bx * cx + by * cy)
    c1 = 2.0 * (bx * bx + by * by) + 4.0 * (ax * cx + ay * cy)
    c0 = 2.0 * (ax * bx + ay * by)
    nq, q1, q2 = quad_roots_in(3.0 * c3, 2.0 * c2, c1, 0.0, horizon)
    # critical points of g (roots of the cubic g'), at most three, ascending
    k1 = horizon
    k2 = horizon
    k3 = horizon
    nk = 0
    u = 0.0
    gu = c0
    for k in range(nq + 1):
        v = horizon
        if k < nq:
            v = q1 if k == 0 else q2
        gv = cubic_val(c3, c2, c1, c0, v)
        crit = -1.0
        if (gu < 0.0 < gv) or (gv < 0.0 < gu):
            crit = cubic_root(c3, c2, c1, c0, u, v, gu, gv)
        elif gv == 0.0 and v < horizon:
            crit = v
        if crit >= 0.0:
            if nk == 0:
                k1 = crit
            elif nk == 1:
                k2 = crit
            else:
                k3 = crit
            nk += 1
        u = v
        gu = gv
    a = 0.0
    fa = gap_val(ax, ay, bx, by, cx, cy, r2, a)
    for k in range(nk + 1):
        b = horizon
        if k < nk:
            b = k1 if k == 0 else (k2 if k == 1 else k3)
        if b <= a:
            continue
        fb = gap_val(ax, ay, bx, by, cx, cy, r2, b)
        if fb < fa:
            if fa <= tolc:
                return a
            if fb <= 0.0:
                lo = a
                hi = b
                flo = fa
                fhi = fb
                side = 0
                for _ in range(200):
                    c = (lo * fhi - hi * flo) / (fhi - flo)
                    if not lo < c < hi:
                        c = 0.5 * (lo + hi)
                        if not lo < c < hi:
                            break
                    fc = gap_val(ax, ay, bx, by, cx, cy, r2, c)
                    if fc > 0.0:
                        lo = c
                        flo = fc
                        if side == -1:
                            fhi *= 0.5
                        side = -1
                    else:
                        hi = c
                        fhi = fc
                        if side == 1:
                            flo *= 0.5
                        side = 1
                    if hi - lo <= 4e-16 * hi:
                        break
                return float(hi)
        a = b
        fa = fb
    return INF


# --- event times -------------------------------------------------------------------------------
@njit(cache=True)
def own_event(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray
) -> tuple[float, int, int]:
    """Next own event of disk i: (time s, OWN_* code, side or pocket index); (inf, 0, 0) if none.

    A moving disk's reference time must be ``now``. A layer-0 disk whose centre is over a hole
    falls at once; a moving one stops, or first meets a pocket hole or a rail (pockets win ties).
    """
    if L[i, STATUS] != ON_BOARD:
        return INF, 0, 0
    decel = P[P_DECEL]
    half = P[P_HALF]
    pr = P[P_POCKET_R]
    x = S[i, X]
    y = S[i, Y]
    vx = S[i, VX]
    vy = S[i, VY]
    sp = S[i, SP]
    on_floor = L[i, LAYER] == 0
    if sp == 0.0:
        if on_floor:
            for k in range(4):
                cx = half if k == 1 or k == 2 else -half
                cy = half if k >= 2 else -half
                dx = x - cx
                dy = y - cy
                if dx * dx + dy * dy < pr * pr:
                    return now, OWN_POCKET, k
        return INF, 0, 0
    best = 0.5 * sp / decel
    code = OWN_STOP
    aux = 0
    if on_floor:
        a = vx * vx + vy * vy
        for k in range(4):
            cx = half if k == 1 or k == 2 else -half
            cy = half if k >= 2 else -half
            dx = x - cx
            dy = y - cy
            c = dx * dx + dy * dy - pr * pr
            b = 2.0 * (vx * dx + vy * dy)
            f = INF
            if c < 0.0:
                f = 0.0
            elif b < 0.0:
                disc = b * b - 4.0 * a * c
                if disc > 0.0:
                    f = 2.0 * c / (-b + np.sqrt(disc))
            if f < best:
                best = f
                code = OWN_POCKET
                aux = k
    limit = half - S[i, RAD]
    for side in range(4):
        f = INF
        if side == SOUTH and vy < 0.0:
            f = 0.0 if y <= -limit + TOUCH else (-limit - y) / vy
        elif side == WEST and vx < 0.0:
            f = 0.0 if x <= -limit + TOUCH else (-limit - x) / vx
        elif side == NORTH and vy > 0.0:
            f = 0.0 if y >= limit - TOUCH else (limit - y) / vy
        elif side == EAST and vx > 0.0:
            f = 0.0 if x >= limit - TOUCH else (limit - x) / vx
        if f < best:
            best = f
            code = OWN_RAIL
            aux = side
    if code == OWN_STOP:
        return S[i, TSTOP], code, aux
    return S[i, T0] + f_to_tau(best, sp, decel), code, aux


@njit(cache=True)
def pair_time(S: np.ndarray, L: np.ndarray, i: int, j: int, now: float, P: np.ndarray) -> float:
    """Next event time (s) of the pair (i, j) from ``now``, or inf.

    Same layer: the first contact while closing (touching-and-closing is ``now``; touching-and-
    separating is no event). Adjacent layers: the moment the moving lower disk's footprint leaves
    the resting upper disk's (support exit, R6e), counted only when the overlap exceeds TOUCH.
    """
    if L[i, STATUS] != ON_BOARD or L[j, STATUS] != ON_BOARD:
        return INF
    li = L[i, LAYER]
    lj = L[j, LAYER]
    if li != lj and li != lj + 1 and lj != li + 1:
        return INF
    if (S[i, SP] == 0.0 or now >= S[i, TSTOP]) and (S[j, SP] == 0.0 or now >= S[j, TSTOP]):
        return INF  # both at rest (state_at would give both speeds 0): the common case
    decel = P[P_DECEL]
    xi, yi, vxi, vyi = state_at(S, i, now, decel)
    xj, yj, vxj, vyj = state_at(S, j, now, decel)
    si = np.sqrt(vxi * vxi + vyi * vyi)
    sj = np.sqrt(vxj * vxj + vyj * vyj)
    if si == 0.0 and sj == 0.0:
        return INF
    rr = S[i, RAD] + S[j, RAD]
    tolc = 2.0 * rr * TOUCH
    if li != lj:
        # support exit: the upper disk rests, the lower one slides
        upper_moving = si > 0.0 if li > lj else sj > 0.0
        if upper_moving:
            return INF
        if li > lj:
            dx = xj - xi
            dy = yj - yi
            vx = vxj
            vy = vyj
            sm = sj
        else:
            dx = xi - xj
            dy = yi - yj
            vx = vxi
            vy = vyi
            sm = si
        a = vx * vx + vy * vy
        b = 2.0 * (vx * dx + vy * dy)
        c = dx * dx + dy * dy - rr * rr
        cmin = c - b * b / (4.0 * a)
        if not (c < -tolc or (b < 0.0 and cmin < -tolc)):
            return INF
        sq = np.sqrt(b * b - 4.0 * a * c)
        f2 = (-b + sq) / (2.0 * a) if b <= 0.0 else 2.0 * c / (-b - sq)
        if f2 >= 0.5 * sm / decel:
            return INF
        return now + f_to_tau(f2, sm, decel)
    if si == 0.0 or sj == 0.0:
        # one disk rests: the moving centre's straight path meets a circle of radius rr
        if si > 0.0:
            dx = xi - xj
            dy = yi - yj
            vx = vxi
            vy = vyi
            sm = si
        else:
            dx = xj - xi
            dy = yj - yi
            vx = vxj
            vy = vyj
            sm = sj
        b = 2.0 * (vx * dx + vy * dy)
        c = dx * dx + dy * dy - rr * rr
        if c <= tolc:
            return now if b < 0.0 else INF
        if b >= 0.0:
            return INF
        a = vx * vx + vy * vy
        disc = b * b - 4.0 * a * c
        if disc <= 0.0:
            return INF
        f1 = 2.0 * c / (-b + np.sqrt(disc))
        if f1 >= 0.5 * sm / decel:
            return INF
        return now + f_to_tau(f1, sm, decel)
    # both move: quartic up to the first stop; a bounding-box test discards most pairs
    horizon = min(S[i, TSTOP], S[j, TSTOP]) - now
    if horizon <= 0.0:
        return INF
    gi = horizon - 0.5 * decel * horizon * horizon / si
    gj = horizon - 0.5 * decel * horizon * horizon / sj
    exi = xi + vxi * gi
    eyi = yi + vyi * gi
    exj = xj + vxj * gj
    eyj = yj + vyj * gj
    if (
        min(xi, exi) - rr > max(xj, exj)
        or min(xj, exj) - rr > max(xi, exi)
        or min(yi, eyi) - rr > max(yj, eyj)
        or min(yj, eyj) - rr > max(yi, eyi)
    ):
        return INF
    cx = -0.5 * decel * (vxi / si - vxj / sj)
    cy = -0.5 * decel * (vyi / si - vyj / sj)
    tau = first_contact_quartic(xi - xj, yi - yj, vxi - vxj, vyi - vyj, cx, cy, rr, horizon, tolc)
    if tau == INF:
        return INF
    return now + tau


# --- the random draw for flying off -------------------------------------------------------------
@njit(cache=True)
def uniform01(seed: np.uint64, counter: int) -> float:
    """A uniform number in [0, 1) from splitmix64 of (seed, counter): same bits with or without JIT.

    Called with numpy overflow warnings silenced by the caller (unsigned arithmetic wraps).
    """
    z = seed + np.uint64(counter) * np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# --- bookkeeping -------------------------------------------------------------------------------
@njit(cache=True)
def log_event(
    EVf: np.ndarray,
    EVi: np.ndarray,
    n: int,
    t: float,
    kind: int,
    i: int,
    j: int,
    aux: int,
    S: np.ndarray,
    L: np.ndarray,
    decel: float,
) -> int:
    """Append an event with the states of i (and j) just after it; returns the new log length."""
    if n >= EVf.shape[0]:
        return n
    EVf[n, 0] = t
    x, y, vx, vy = state_at(S, i, t, decel)
    EVf[n, 1] = x
    EVf[n, 2] = y
    EVf[n, 3] = vx
    EVf[n, 4] = vy
    EVi[n, 0] = kind
    EVi[n, 1] = i
    EVi[n, 2] = j
    EVi[n, 3] = aux
    EVi[n, 4] = L[i, LAYER]
    EVi[n, 5] = -1
    if j >= 0:
        x, y, vx, vy = state_at(S, j, t, decel)
        EVf[n, 5] = x
        EVf[n, 6] = y
        EVf[n, 7] = vx
        EVf[n, 8] = vy
        EVi[n, 5] = L[j, LAYER]
    else:
        EVf[n, 5] = 0.0
        EVf[n, 6] = 0.0
        EVf[n, 7] = 0.0
        EVf[n, 8] = 0.0
    return n + 1


@njit(cache=True)
def refresh(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    now: float,
    P: np.ndarray,
    PT: np.ndarray,
    OT: np.ndarray,
    OC: np.ndarray,
    OA: np.ndarray,
) -> None:
    """Recompute disk i's own event and every pair time involving i."""
    t, c, a = own_event(S, L, i, now, P)
    OT[i] = t
    OC[i] = c
    OA[i] = a
    for k in range(S.shape[0]):
        if k < i:
            PT[k, i] = pair_time(S, L, k, i, now, P)
        elif k > i:
            PT[i, k] = pair_time(S, L, i, k, now, P)


@njit(cache=True)
def overlaps(S: np.ndarray, i: int, j: int, now: float, decel: float) -> bool:
    """Do the footprints of i and j overlap by more than TOUCH at time now?"""
    xi, yi, _, _ = state_at(S, i, now, decel)
    xj, yj, _, _ = state_at(S, j, now, decel)
    rr = S[i, RAD] + S[j, RAD]
    dx = xi - xj
    dy = yi - yj
    return bool(dx * dx + dy * dy < rr * rr - 2.0 * rr * TOUCH)


@njit(cache=True)
def supported(S: np.ndarray, L: np.ndarray, i: int, layer: int, now: float, decel: float) -> bool:
    """Would disk i be supported on ``layer`` (layer 0, or a disk of layer-1 under it) at now?"""
    if layer == 0:
        return True
    for k in range(S.shape[0]):
        if (
            k != i
            and L[k, STATUS] == ON_BOARD
            and L[k, LAYER] == layer - 1
            and overlaps(S, i, k, now, decel)
        ):
            return True
    return False


@njit(cache=True)
def settle(
    S: np.ndarray,
    L: np.ndarray,
    first: int,
    itself: bool,
    now: float,
    P: np.ndarray,
    PT: np.ndarray,
    OT: np.ndarray,
    OC: np.ndarray,
    OA: np.ndarray,
    stack: np.ndarray,
    queued: np.ndarray,
    EVf: np.ndarray,
    EVi: np.ndarray,
    n_log: int,
) -> int:
    """R6e: drop every disk left without support, starting from ``first`` itself (``itself``) or
    from the disks resting on ``first``.

    A dropping disk comes down, at rest and where it stands, to the highest layer that supports it
    (one ``dropped`` event); the disks it held are checked in turn. ``stack`` (n + 1 ints) and
    ``queued`` (n flags, all False) are work space: a disk is queued at most once at a time.
    Returns the log length.
    """
    decel = P[P_DECEL]
    top = 0
    if itself:
        stack[0] = first
        queued[first] = True
        top = 1
    else:
        top = push_held(S, L, first, L[first, LAYER] + 1, now, decel, stack, queued, top)
    while top > 0:
        top -= 1
        u = stack[top]
        queued[u] = False
        old = L[u, LAYER]
        if L[u, STATUS] != ON_BOARD or old == 0 or supported(S, L, u, old, now, decel):
            continue
        new = old - 1
        while new > 0 and not supported(S, L, u, new, now, decel):
            new -= 1
        L[u, LAYER] = new
        rebase(S, u, now, decel)
        n_log = log_event(EVf, EVi, n_log, now, DROPPED, u, -1, new, S, L, decel)
        refresh(S, L, u, now, P, PT, OT, OC, OA)
        top = push_held(S, L, u, old + 1, now, decel, stack, queued, top)
    return n_log


@njit(cache=True)
def push_held(
    S: np.ndarray,
    L: np.ndarray,
    below: int,
    layer: int,
    now: float,
    decel: float,
    stack: np.ndarray,
    queued: np.ndarray,
    top: int,
) -> int:
    """Queue the disks of ``layer`` whose footprint overlaps disk ``below``; returns the new top."""
    for k in range(S.shape[0]):
        if (
            k != below
            and not queued[k]
            and L[k, STATUS] == ON_BOARD
            and L[k, LAYER] == layer
            and overlaps(S, k, below, now, decel)
        ):
            stack[top] = k
            queued[k] = True
            top += 1
    return top


@njit(cache=True)
def remove(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    now: float,
    status: int,
    aux: int,
    order: int,
    P: np.ndarray,
    PT: np.ndarray,
    OT: np.ndarray,
    OC: np.ndarray,
    OA: np.ndarray,
) -> None:
    """Take disk i off the surface at time now (into pocket ``aux`` or off the board)."""
    decel = P[P_DECEL]
    x, y, _, _ = state_at(S, i, now, decel)
    set_motion(S, i, now, x, y, 0.0, 0.0, decel)
    L[i, STATUS] = status
    L[i, POCKET] = aux if status == IN_POCKET else -1
    L[i, ORDER] = order
    S[i, PTIME] = now
    refresh(S, L, i, now, P, PT, OT, OC, OA)


@njit(cache=True)
def collide(S: np.ndarray, i: int, j: int, now: float, P: np.ndarray) -> None:
    """Impulse along the line of centres with restitution (both disks at their state at now).

    A pair whose approach is slower than STICK_SPEED while friction presses it together
    (inelastic collapse) moves on as one: both take the centre-of-mass velocity.
    """
    decel = P[P_DECEL]
    xi, yi, vxi, vyi = state_at(S, i, now, decel)
    xj, yj, vxj, vyj = state_at(S, j, now, decel)
    dx = xj - xi
    dy = yj - yi
    d = np.sqrt(dx * dx + dy * dy)
    nx = dx / d
    ny = dy / d
    mi = S[i, MASS]
    mj = S[j, MASS]
    vn = (vxi - vxj) * nx + (vyi - vyj) * ny
    si = np.sqrt(vxi * vxi + vyi * vyi)
    sj = np.sqrt(vxj * vxj + vyj * vyj)
    ax = 0.0
    ay = 0.0
    if si > 0.0:
        ax -= decel * vxi / si
        ay -= decel * vyi / si
    if sj > 0.0:
        ax += decel * vxj / sj
        ay += decel * vyj / sj
    pressed = (ax * nx + ay * ny) > 0.0
    if vn < STICK_SPEED and (pressed or vn <= 0.0):
        m = mi + mj
        vx = (mi * vxi + mj * vxj) / m
        vy = (mi * vyi + mj * vyj) / m
        set_motion(S, i, now, xi, yi, vx, vy, decel)
        set_motion(S, j, now, xj, yj, vx, vy, decel)
        return
    if vn > 0.0:
        jn = (1.0 + P[P_E_DISK]) * vn / (1.0 / mi + 1.0 / mj)
        vxi -= jn / mi * nx
        vyi -= jn / mi * ny
        vxj += jn / mj * nx
        vyj += jn / mj * ny
    set_motion(S, i, now, xi, yi, vxi, vyi, decel)
    set_motion(S, j, now, xj, yj, vxj, vyj, decel)


# --- the event loop ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def run(
    S: np.ndarray,
    L: np.ndarray,
    P: np.ndarray,
    striker: int,
    seed: np.uint64,
    fly_off: bool,
    max_events: int,
    EVf: np.ndarray,
    EVi: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
) -> None:
    """Simulate one shot in place until every disk rests (or ``max_events`` events were handled).

    S, L: state (modified: the final layout). EVf/EVi: event log (rows beyond capacity are not
    written). OUTi: (log length, events handled, truncated, striker's first contact index or -1,
    rails it touched before). OUTf: (first contact time). RB: those rails (side codes).
    On truncation every moving disk stops where it stands at that moment (``stopped`` events).
    """
    n = S.shape[0]
    decel = P[P_DECEL]
    PT = np.full((n, n), INF)
    OT = np.full(n, INF)
    OC = np.zeros(n, dtype=np.int64)
    OA = np.zeros(n, dtype=np.int64)
    stack = np.empty(n + 1, dtype=np.int64)
    queued = np.zeros(n, dtype=np.bool_)
    now = 0.0
    for i in range(n):
        set_motion(S, i, 0.0, S[i, X], S[i, Y], S[i, VX], S[i, VY], decel)
        L[i, STATUS] = ON_BOARD
        L[i, POCKET] = -1
        L[i, ORDER] = -1
        S[i, PTIME] = INF
    for i in range(n):
        t, c, a = own_event(S, L, i, now, P)
        OT[i] = t
        OC[i] = c
        OA[i] = a
        for j in range(i + 1, n):
            PT[i, j] = pair_time(S, L, i, j, now, P)
    n_log = 0
    n_proc = 0
    order = 0
    fc = -1
    fc_t = INF
    n_rb = 0
    truncated = 0
    while True:
        best = INF
        bi = -1
        bj = -1
        for i in range(n):
            if OT[i] < best:
                best = OT[i]
                bi = i
        for i in range(n):
            for j in range(i + 1, n):
                if PT[i, j] < best:
                    best = PT[i, j]
                    bi = i
                    bj = j
        if best == INF:
            break
        if n_proc >= max_events:
            truncated = 1
            break
        n_proc += 1
        if best > now:
            now = best
        if bj < 0:
            i = bi
            code = OC[i]
            aux = OA[i]
            if code == OWN_STOP:
                rebase(S, i, now, decel)
                n_log = log_event(EVf, EVi, n_log, now, STOPPED, i, -1, 0, S, L, decel)
                refresh(S, L, i, now, P, PT, OT, OC, OA)
            elif code == OWN_POCKET:
                remove(S, L, i, now, IN_POCKET, aux, order, P, PT, OT, OC, OA)
                order += 1
                n_log = log_event(EVf, EVi, n_log, now, POCKETED, i, -1, aux, S, L, decel)
                n_log = settle(
                    S, L, i, False, now, P, PT, OT, OC, OA, stack, queued, EVf, EVi, n_log
                )
            else:
                rebase(S, i, now, decel)
                vn = abs(S[i, VY]) if aux in (SOUTH, NORTH) else abs(S[i, VX])
                flies = False
                if fly_off and vn > P[P_FLY_V0]:
                    frac = (vn - P[P_FLY_V0]) / (P[P_FLY_V1] - P[P_FLY_V0])
                    if frac > 1.0:
                        frac = 1.0
                    flies = uniform01(seed, n_proc) < P[P_FLY_PMAX] * frac
                if flies:
                    remove(S, L, i, now, OFF_BOARD, aux, order, P, PT, OT, OC, OA)
                    order += 1
                    n_log = log_event(EVf, EVi, n_log, now, FLEW_OFF, i, -1, aux, S, L, decel)
                    n_log = settle(
                        S, L, i, False, now, P, PT, OT, OC, OA, stack, queued, EVf, EVi, n_log
                    )
                else:
                    limit = P[P_HALF] - S[i, RAD]
                    x = S[i, X]
                    y = S[i, Y]
                    vx = S[i, VX]
                    vy = S[i, VY]
                    e = P[P_E_RAIL]
                    if aux == SOUTH:
                        y = -limit
                        vy = -e * vy
                    elif aux == NORTH:
                        y = limit
                        vy = -e * vy
                    elif aux == WEST:
                        x = -limit
                        vx = -e * vx
                    else:
                        x = limit
                        vx = -e * vx
                    set_motion(S, i, now, x, y, vx, vy, decel)
                    n_log = log_event(EVf, EVi, n_log, now, DISK_RAIL, i, -1, aux, S, L, decel)
                    refresh(S, L, i, now, P, PT, OT, OC, OA)
                    if i == striker and fc < 0:
                        if n_rb < RB.shape[0]:
                            RB[n_rb] = aux
                        n_rb += 1
        elif L[bi, LAYER] == L[bj, LAYER]:
            collide(S, bi, bj, now, P)
            n_log = log_event(EVf, EVi, n_log, now, DISK_DISK, bi, bj, 0, S, L, decel)
            refresh(S, L, bi, now, P, PT, OT, OC, OA)
            refresh(S, L, bj, now, P, PT, OT, OC, OA)
            if fc < 0 and (bi == striker or bj == striker):
                fc = bj if bi == striker else bi
                fc_t = now
        else:
            # a support slid away: the upper disk drops if nothing else holds it (R6e)
            upper = bi if L[bi, LAYER] > L[bj, LAYER] else bj
            PT[bi, bj] = pair_time(S, L, bi, bj, now, P)
            n_log = settle(
                S, L, upper, True, now, P, PT, OT, OC, OA, stack, queued, EVf, EVi, n_log
            )
    if truncated:
        for i in range(n):
            if L[i, STATUS] == ON_BOARD and S[i, SP] > 0.0:
                x, y, _, _ = state_at(S, i, now, decel)
                set_motion(S, i, now, x, y, 0.0, 0.0, decel)
                n_log = log_event(EVf, EVi, n_log, now, STOPPED, i, -1, 0, S, L, decel)
    OUTi[0] = n_log
    OUTi[1] = n_proc
    OUTi[2] = truncated
    OUTi[3] = fc
    OUTi[4] = min(n_rb, RB.shape[0])
    OUTf[0] = fc_t


@njit(cache=True)
def run_one_of_batch(
    m: int,
    S0: np.ndarray,
    L0: np.ndarray,
    P: np.ndarray,
    striker: int,
    shots: np.ndarray,
    seeds: np.ndarray,
    fly_off: bool,
    max_events: int,
    XYT: np.ndarray,
    LOUT: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
) -> None:
    """Shot m of a batch: shots[m] = (x, y, vx, vy) of the striker (m, m/s); no event log.

    Only what a batch reports is kept of the final state: XYT[:, m] = (x, y, time out) per disk
    (m, m, s), LOUT[:, m] = (layer, status, pocket, order) per disk."""
    S = S0.copy()
    L = L0.copy()
    S[striker, X] = shots[m, 0]
    S[striker, Y] = shots[m, 1]
    S[striker, VX] = shots[m, 2]
    S[striker, VY] = shots[m, 3]
    EVf = np.empty((0, N_EVF))
    EVi = np.empty((0, N_EVI), dtype=np.int64)
    run(S, L, P, striker, seeds[m], fly_off, max_events, EVf, EVi, OUTi[m], OUTf[m], RB[m])
    for k in range(S.shape[0]):
        XYT[0, m, k] = S[k, X]
        XYT[1, m, k] = S[k, Y]
        XYT[2, m, k] = S[k, PTIME]
        for c in range(N_LCOL):
            LOUT[c, m, k] = L[k, c]


@njit(cache=True, nogil=True, parallel=True)
def run_batch_parallel(
    S0: np.ndarray,
    L0: np.ndarray,
    P: np.ndarray,
    striker: int,
    shots: np.ndarray,
    seeds: np.ndarray,
    fly_off: bool,
    max_events: int,
    XYT: np.ndarray,
    LOUT: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
) -> None:
    """Every shot of a batch, spread over numba's threads (prange); results into the out arrays."""
    for m in prange(shots.shape[0]):
        run_one_of_batch(
            m, S0, L0, P, striker, shots, seeds, fly_off, max_events, XYT, LOUT, OUTi, OUTf, RB
        )


@njit(cache=True, nogil=True)
def run_batch_serial(
    S0: np.ndarray,
    L0: np.ndarray,
    P: np.ndarray,
    striker: int,
    shots: np.ndarray,
    seeds: np.ndarray,
    fly_off: bool,
    max_events: int,
    XYT: np.ndarray,
    LOUT: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
) -> None:
    """Every shot of a batch on the calling thread (small batches: no thread start-up cost)."""
    for m in range(shots.shape[0]):
        run_one_of_batch(
            m, S0, L0, P, striker, shots, seeds, fly_off, max_events, XYT, LOUT, OUTi, OUTf, RB
        )


@njit(cache=True)
def run_one_board(
    m: int,
    S_t: np.ndarray,
    L_t: np.ndarray,
    P: np.ndarray,
    striker: int,
    present: np.ndarray,
    XY0: np.ndarray,
    layer0: np.ndarray,
    shots: np.ndarray,
    seeds: np.ndarray,
    fly_off: bool,
    max_events: int,
    XYT: np.ndarray,
    LOUT: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
    ERR: np.ndarray,
) -> None:
    """Board m of a multi-board batch: the template rows (S_t, L_t, every disk that may appear,
    sorted by id, at rest) of the disks present on board m, placed at XY0[:, m] on layer0[m],
    and the striker (template row ``striker``) at shots[m] = (x, y, vx, vy); no event log.

    Outputs per template disk k: XYT[:, m, k] = (x, y, time out), LOUT[:, m, k] = (layer, status,
    pocket, order), status -1 for a disk absent from the board. OUTi/OUTf/RB as in a batch, the
    first contact as a template index. ERR[m] = (code, disk a, disk b) of :func:`validate` when
    the layout is refused (nothing is simulated then)."""
    n_t = S_t.shape[0]
    n = 0
    for k in range(n_t):
        if present[m, k] or k == striker:
            n += 1
    S = np.zeros((n, S_t.shape[1]))
    L = np.zeros((n, L_t.shape[1]), dtype=np.int64)
    index = np.empty(n, dtype=np.int64)
    local_striker = -1
    j = 0
    for k in range(n_t):
        if not (present[m, k] or k == striker):
            continue
        for c in range(S_t.shape[1]):
            S[j, c] = S_t[k, c]
        for c in range(L_t.shape[1]):
            L[j, c] = L_t[k, c]
        if k == striker:
            S[j, X] = shots[m, 0]
            S[j, Y] = shots[m, 1]
            S[j, VX] = shots[m, 2]
            S[j, VY] = shots[m, 3]
            L[j, LAYER] = 0
            local_striker = j
        else:
            S[j, X] = XY0[0, m, k]
            S[j, Y] = XY0[1, m, k]
            L[j, LAYER] = layer0[m, k]
        index[j] = k
        j += 1
    for k in range(n_t):
        XYT[0, m, k] = np.nan
        XYT[1, m, k] = np.nan
        XYT[2, m, k] = INF
        LOUT[0, m, k] = -1
        LOUT[1, m, k] = -1
        LOUT[2, m, k] = -1
        LOUT[3, m, k] = -1
    code, a, b = validate(S, L, P)
    if code:
        ERR[m, 0] = code
        ERR[m, 1] = index[a]
        ERR[m, 2] = index[b] if b >= 0 else -1
        return
    EVf = np.empty((0, N_EVF))
    EVi = np.empty((0, N_EVI), dtype=np.int64)
    run(S, L, P, local_striker, seeds[m], fly_off, max_events, EVf, EVi, OUTi[m], OUTf[m], RB[m])
    for jj in range(n):
        k = index[jj]
        XYT[0, m, k] = S[jj, X]
        XYT[1, m, k] = S[jj, Y]
        XYT[2, m, k] = S[jj, PTIME]
        LOUT[0, m, k] = L[jj, LAYER]
        LOUT[1, m, k] = L[jj, STATUS]
        LOUT[2, m, k] = L[jj, POCKET]
        LOUT[3, m, k] = L[jj, ORDER]
    if OUTi[m, 3] >= 0:
        OUTi[m, 3] = index[OUTi[m, 3]]


@njit(cache=True, nogil=True, parallel=True)
def run_boards_parallel(
    S_t: np.ndarray,
    L_t: np.ndarray,
    P: np.ndarray,
    striker: int,
    present: np.ndarray,
    XY0: np.ndarray,
    layer0: np.ndarray,
    shots: np.ndarray,
    seeds: np.ndarray,
    fly_off: bool,
    max_events: int,
    XYT: np.ndarray,
    LOUT: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
    ERR: np.ndarray,
) -> None:
    """One shot on each board of a multi-board batch, over numba's threads (prange)."""
    for m in prange(shots.shape[0]):
        run_one_board(
            m, S_t, L_t, P, striker, present, XY0, layer0, shots, seeds, fly_off, max_events,
            XYT, LOUT, OUTi, OUTf, RB, ERR,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def run_boards_serial(
    S_t: np.ndarray,
    L_t: np.ndarray,
    P: np.ndarray,
    striker: int,
    present: np.ndarray,
    XY0: np.ndarray,
    layer0: np.ndarray,
    shots: np.ndarray,
    seeds: np.ndarray,
    fly_off: bool,
    max_events: int,
    XYT: np.ndarray,
    LOUT: np.ndarray,
    OUTi: np.ndarray,
    OUTf: np.ndarray,
    RB: np.ndarray,
    ERR: np.ndarray,
) -> None:
    """One shot on each board of a multi-board batch, on the calling thread."""
    for m in range(shots.shape[0]):
        run_one_board(
            m, S_t, L_t, P, striker, present, XY0, layer0, shots, seeds, fly_off, max_events,
            XYT, LOUT, OUTi, OUTf, RB, ERR,
        )  # fmt: skip


@njit(cache=True)
def validate(S: np.ndarray, L: np.ndarray, P: np.ndarray) -> tuple[int, int, int]:
    """Check a layout: (0, -1, -1) if fine, else (code, i, j).

    Codes: 1 outside the rails, 2 same-layer overlap beyond TOUCH, 3 upper-layer disk without
    support, 4 upper-layer disk moving.
    """
    n = S.shape[0]
    half = P[P_HALF]
    for i in range(n):
        limit = half - S[i, RAD] + TOUCH
        if abs(S[i, X]) > limit or abs(S[i, Y]) > limit:
            return 1, i, -1
    for i in range(n):
        for j in range(i + 1, n):
            if L[i, LAYER] == L[j, LAYER]:
                rr = S[i, RAD] + S[j, RAD]
                dx = S[i, X] - S[j, X]
                dy = S[i, Y] - S[j, Y]
                if dx * dx + dy * dy < rr * rr - 2.0 * rr * TOUCH:
                    return 2, i, j
    for i in range(n):
        if L[i, LAYER] > 0:
            if S[i, VX] != 0.0 or S[i, VY] != 0.0:
                return 4, i, -1
            found = False
            for k in range(n):
                if L[k, LAYER] == L[i, LAYER] - 1:
                    rr = S[i, RAD] + S[k, RAD]
                    dx = S[i, X] - S[k, X]
                    dy = S[i, Y] - S[k, Y]
                    if dx * dx + dy * dy < rr * rr - 2.0 * rr * TOUCH:
                        found = True
                        break
            if not found:
                return 3, i, -1
    return 0, -1, -1
