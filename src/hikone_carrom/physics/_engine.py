"""Compiled core of the exact event-driven engine (numba, cached to disk; also runs without JIT).

The entry points (``run``, ``run_batch_*``) release the GIL (``nogil``), so that a server's
simulation threads and a player's look-ahead run truly in parallel.

All JIT code lives in this one module on purpose: numba's on-disk cache is invalidated by changes
to the file of the compiled function only, so a helper in another module could leave a stale cache.

Model (docs/physics.md). Disk i has a reference time t0, centre (x, y), velocity (vx, vy), spin w
and a motion law until the end of its piece (column TSTOP):

- straight (the common case): deceleration ``dec`` against the velocity, so that until it stops at
  t0 + sp/dec its centre is ``p0 + v0 * f(tau)``, ``f(tau) = tau - dec*tau^2 / (2*sp)``: events
  with fixed objects (rails, pocket holes, resting disks, supports) are roots of quadratics in f;
- curved (a disk sliding on a moving support): a constant acceleration vector (ax, ay),
  ``p0 + v0*tau + a*tau^2/2``, until the piece ends (a transition event).

Two moving disks meet at a root of a quartic in t, found on monotone pieces (split at the roots
of the derivative, itself split at the roots of a quadratic) by a bracketing Illinois iteration.
Spin decays linearly at 4*mu*g/(3*r) (a uniform disk on the board) and acts only through the
tangential friction impulse of impacts.

Arrays, not objects: S (N x 15 floats) and L (N x 6 ints) hold the state; a pair table holds the
next event time of every pair (its diagonal the earliest of each row, so that the next event is
found in O(N)) and a row holds every disk's own next event (stop, rail, pocket, transition,
leaving its support); after an event only the rows of the disks involved are recomputed, and a
pair of disks at rest, or a resting disk away from a moving one's path, costs no root finding.
Ties are resolved in a fixed order: own events by disk index before pair events by (i, j).
Nothing allocates per event. The tables of one run travel as one tuple ``T`` (:data:`Tables`).
The per-event handlers and the steps split out of long functions are compiled inline
(``inline="always"``), so that the event loop runs as fast as one long function would, and a
small function taking ``T`` costs no call passing ten arrays.

Contents, in the file's order:

- layout constants: the columns of S and L, status, event and rail codes, the parameter vector,
  the log and work rows, the tolerances; ``Tables``.
- kinematics: ``f_to_tau``, ``f_end``, ``state_at``, ``accel_at``, ``moving``, ``spin_at``,
  ``set_motion``, ``set_curved``, ``rebase``, ``stop_at``.
- event times: roots (``quad_roots_in``, ``cubic_val``, ``cubic_root``, ``gap_val``,
  ``critical_points``, ``gap_root``, ``first_contact_quartic``); own events (``rail_time_curved``,
  ``rim_time``, ``hole_under``, ``hole_f``, ``rail_f``, ``curved_own_event``,
  ``straight_own_event``, ``own_event``); pairs (``support_exit_time``, ``resting_hit_time``,
  ``meeting_time``, ``pair_time``); the queue (``set_pair``, ``first_pair``, ``refresh``,
  ``retime``, ``next_event``).
- impacts: ``pressing``, ``closing_speed``, ``impulse``, ``collide``, ``collide_fixed``,
  ``rail_bounce``, and the fly-off draw ``uniform01``, ``flies_off``.
- piles (R6e): drops (``overlaps``, ``supported``, ``push_held``, ``settle``,
  ``drop_unsupported``); riding (``centre_over``, ``find_carrier``, ``has_riders``, ``in_pile``,
  ``pile_members``, ``in_sub``, ``pile_forces``, ``pile_load``, ``pile_units``, ``pile_slip``,
  ``pile_laws``, ``pile_changes``, ``pile_apply``, ``pile_update``, ``move_with_pile``);
  restacking and tipping (``restack``, ``ahead``, ``lens_arc``, ``is_support``, ``held_up``,
  ``clear_distance``, ``tip_off``, ``disturbed``, ``tip_all``, ``tip_ended``).
- dispatch: the log (``write_disk``, ``write_event``, ``log_event``); one handler per event
  (``remove``, ``leave``, ``on_stop``, ``on_transition``, ``on_rim``, ``on_rail``,
  ``on_impact``, ``impact_on_piles``, ``on_support_exit``); the loop (``tables``, ``start``,
  ``stop_all``, ``run``).
- entry points: ``run_one_of_batch``, ``run_batch_parallel``, ``run_batch_serial``,
  ``board_rows``, ``board_out``, ``run_one_board``, ``run_boards_parallel``,
  ``run_boards_serial``, ``unpack``, ``validate``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

# --- layout constants ----------------------------------------------------------------------------
T0, X, Y, VX, VY, SP, TSTOP, RAD, MASS, PTIME, DEC, AX, AY, CURV, W = range(15)
N_SCOL = 15
LAYER, STATUS, POCKET, ORDER, CARRIER, HOLD = range(6)
"""L columns; HOLD is FREE, BLOCKED, TIPPING or STUCK."""
N_LCOL = 6
N_LOUT = 4
"""The L columns a batch reports per shot (layer, status, pocket, order)."""
# disk status
ON_BOARD, IN_POCKET, OFF_BOARD = 0, 1, 2
# logged event kinds (EventKind order)
DISK_DISK, DISK_RAIL, POCKETED, STOPPED, DROPPED, FLEW_OFF, CARRIED, TIPPED = range(8)
# own (single-disk) events
OWN_STOP, OWN_RAIL, OWN_POCKET, OWN_TRANS, OWN_RIM = 1, 2, 3, 4, 5
# rail sides, in Side order: south, west, north, east
SOUTH, WEST, NORTH, EAST = range(4)
# parameter vector
(
    P_DECEL,
    P_E_DISK,
    P_E_RAIL,
    P_HALF,
    P_POCKET_R,
    P_FLY_V0,
    P_FLY_V1,
    P_FLY_PMAX,
    P_STACK,
    P_MU_DISK,
    P_MU_RAIL,
    P_MERGE_ALL,
) = range(12)
N_PARAMS = 12
# event log rows: floats (time, then per disk x, y, vx, vy, w, dec, ax, ay for i and for j),
# ints (kind, i, j, aux, layer i, layer j, curved i, curved j)
N_EVF, N_EVI = 17, 8
N_DISK_F = 8
# outputs: ints (n_log, n_processed, truncated, first_contact, n_rails_before), floats (fc time)
N_OUTI, N_OUTF = 5, 1
MAX_RAILS_BEFORE = 16
# per-pile work rows (floats): x, y, vx, vy, mass, load, unit mass, ax, ay, ex, ey, tend, dec
N_WF = 13
# per-pile work rows (ints): disk, parent row, unit base row, onset flag, changed flag
N_WI = 5

TOUCH = 1e-10
"""Contact tolerance, m: disks this close count as touching (then closing = impact now)."""
PATH_MARGIN = 1e-6
"""Slack (m) of the box around a moving disk's path outside which a resting disk is not
examined: far beyond the rounding of the contact roots (about 1e-15 m)."""
STICK_SPEED = 1e-4
"""Normal approach speed (m/s) below which a pair pressed together by friction may move as one."""
FREE = -1
"""HOLD value of a disk free to ride, to be held up by its supports or to tip off them."""
BLOCKED = -2
"""HOLD value of a stacked disk that was pressed against another on its layer: it lies where
it is and rides on nothing until its layer changes (it may still tip off its supports)."""
TIPPING = -3
"""HOLD value of a stacked disk sliding off the edge of its supports (see :func:`tip_off`):
nothing rides on it, and it drops once it has stopped clear of them."""
STUCK = -4
"""HOLD value of a disk whose tip was stopped on its layer (by a disk or a rail) while a support
still held it: it lies where it is and rides on nothing until its layer changes."""
SNAP_SPEED = 1e-9
"""Relative speed (m/s) below which a disk sliding on its support counts as riding with it."""
SPIN_DECAY = 4.0 / 3.0
"""Spin of a uniform disk sliding in place decays at SPIN_DECAY * mu*g / r (rad/s^2)."""
INF = np.inf
Tables = tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]
"""The tables of one run, passed as one tuple ``T`` (see :func:`tables`): PT (n x n) pair event
times (s), OT/OC/OA (n) each disk's own next event time (s), OWN_* code and side or pocket,
EVf/EVi the event log, stack (n + 1)/queued (n) the work space of :func:`settle`, WF/WI (n rows)
the work rows of :func:`pile_update`."""


# --- kinematics ----------------------------------------------------------------------------------
@njit(cache=True)
def f_to_tau(f: float, sp: float, decel: float) -> float:
    """Time tau (s) at which a disk of initial speed sp has advanced by path factor f (s)."""
    disc = 1.0 - 2.0 * decel * f / sp
    if disc < 0.0:
        disc = 0.0
    return 2.0 * f / (1.0 + float(np.sqrt(disc)))


@njit(cache=True)
def f_end(sp: float, decel: float) -> float:
    """Path factor f (s) at which a disk of speed sp sliding at deceleration decel stops."""
    return 0.5 * sp / decel if decel > 0.0 else INF


@njit(cache=True)
def state_at(S: np.ndarray, i: int, t: float) -> tuple[float, float, float, float]:
    """Centre (m) and velocity (m/s) of disk i at time t >= its reference time."""
    x = S[i, X]
    y = S[i, Y]
    vx = S[i, VX]
    vy = S[i, VY]
    if S[i, CURV] != 0.0:
        tau = t - S[i, T0]
        if tau < 0.0:
            tau = 0.0
        ax = S[i, AX]
        ay = S[i, AY]
        return (
            x + (vx + 0.5 * ax * tau) * tau,
            y + (vy + 0.5 * ay * tau) * tau,
            vx + ax * tau,
            vy + ay * tau,
        )
    sp = S[i, SP]
    if sp == 0.0:
        return x, y, 0.0, 0.0
    decel = S[i, DEC]
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
def accel_at(S: np.ndarray, i: int, t: float) -> tuple[float, float]:
    """Acceleration (m/s^2) of disk i at time t (within its current piece)."""
    if S[i, CURV] != 0.0:
        return S[i, AX], S[i, AY]
    sp = S[i, SP]
    if sp == 0.0 or t >= S[i, TSTOP]:
        return 0.0, 0.0
    return -S[i, DEC] * S[i, VX] / sp, -S[i, DEC] * S[i, VY] / sp


@njit(cache=True)
def moving(S: np.ndarray, i: int, now: float) -> bool:
    """Is disk i in motion (or accelerating) at time now?"""
    if S[i, CURV] != 0.0:
        return bool(now < S[i, TSTOP])
    return bool(S[i, SP] != 0.0 and now < S[i, TSTOP])


@njit(cache=True)
def spin_at(S: np.ndarray, i: int, t: float, P: np.ndarray) -> float:
    """Spin (rad/s, counter-clockwise) of disk i at time t: decays linearly to zero."""
    w = S[i, W]
    if w == 0.0:
        return 0.0
    drop = SPIN_DECAY * P[P_DECEL] * (t - S[i, T0]) / S[i, RAD]
    if drop >= abs(w):
        return 0.0
    return float(w - drop if w > 0.0 else w + drop)


@njit(cache=True)
def set_motion(
    S: np.ndarray,
    i: int,
    t: float,
    x: float,
    y: float,
    vx: float,
    vy: float,
    w: float,
    decel: float,
) -> None:
    """Make (t, x, y, vx, vy, spin w) the reference state of disk i, sliding straight at
    deceleration ``decel`` (SI units)."""
    sp = np.sqrt(vx * vx + vy * vy)
    S[i, T0] = t
    S[i, X] = x
    S[i, Y] = y
    S[i, W] = w
    S[i, DEC] = decel
    S[i, CURV] = 0.0
    S[i, AX] = 0.0
    S[i, AY] = 0.0
    if sp == 0.0:
        S[i, VX] = 0.0
        S[i, VY] = 0.0
        S[i, SP] = 0.0
        S[i, TSTOP] = INF
    else:
        S[i, VX] = vx
        S[i, VY] = vy
        S[i, SP] = sp
        S[i, TSTOP] = t + sp / decel if decel > 0.0 else INF


@njit(cache=True)
def set_curved(
    S: np.ndarray,
    i: int,
    t: float,
    x: float,
    y: float,
    vx: float,
    vy: float,
    w: float,
    ax: float,
    ay: float,
    tend: float,
) -> None:
    """Make disk i move from (t, x, y, vx, vy, spin w) at constant acceleration (ax, ay) until
    ``tend`` (SI units): a disk sliding on a moving support."""
    S[i, T0] = t
    S[i, X] = x
    S[i, Y] = y
    S[i, VX] = vx
    S[i, VY] = vy
    S[i, SP] = np.sqrt(vx * vx + vy * vy)
    S[i, W] = w
    S[i, CURV] = 1.0
    S[i, AX] = ax
    S[i, AY] = ay
    S[i, TSTOP] = tend


@njit(cache=True)
def rebase(S: np.ndarray, i: int, t: float, P: np.ndarray) -> None:
    """Advance disk i's reference state to time t (s), keeping its motion law."""
    x, y, vx, vy = state_at(S, i, t)
    w = spin_at(S, i, t, P)
    if S[i, CURV] != 0.0:
        set_curved(S, i, t, x, y, vx, vy, w, S[i, AX], S[i, AY], S[i, TSTOP])
    else:
        set_motion(S, i, t, x, y, vx, vy, w, S[i, DEC])


@njit(cache=True)
def stop_at(S: np.ndarray, i: int, t: float, P: np.ndarray) -> None:
    """Bring disk i to rest where it is at time t (s)."""
    x, y, _, _ = state_at(S, i, t)
    set_motion(S, i, t, x, y, 0.0, 0.0, spin_at(S, i, t, P), P[P_DECEL])


# --- event times ---------------------------------------------------------------------------------
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
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cx: float,
    cy: float,
    r2: float,
    t: float,
    sgn: float,
) -> float:
    """sgn * (|A + B t + C t^2|^2 - R^2) for the relative motion of two disks (m^2)."""
    px = ax + (bx + cx * t) * t
    py = ay + (by + cy * t) * t
    return sgn * (px * px + py * py - r2)


@njit(cache=True, inline="always")
def critical_points(
    c3: float, c2: float, c1: float, c0: float, horizon: float
) -> tuple[int, float, float, float]:
    """Roots in [0, horizon) of the cubic c3*t^3 + c2*t^2 + c1*t + c0 (the gap's derivative), at
    most three, ascending: (count, k1, k2, k3), unused slots hold horizon. The cubic is split
    into monotone pieces at the roots of its own derivative, a quadratic."""
    nq, q1, q2 = quad_roots_in(3.0 * c3, 2.0 * c2, c1, 0.0, horizon)
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
    return nk, k1, k2, k3


@njit(cache=True, inline="always")
def gap_root(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cx: float,
    cy: float,
    r2: float,
    sgn: float,
    lo: float,
    hi: float,
    flo: float,
    fhi: float,
) -> float:
    """The zero (s) of the gap (:func:`gap_val`) on [lo, hi], where it decreases from flo > 0 to
    fhi <= 0, by an Illinois iteration; returned on the g <= 0 side of the bracket."""
    side = 0
    for _ in range(200):
        c = (lo * fhi - hi * flo) / (fhi - flo)
        if not lo < c < hi:
            c = 0.5 * (lo + hi)
            if not lo < c < hi:
                break
        fc = gap_val(ax, ay, bx, by, cx, cy, r2, c, sgn)
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
    sgn: float,
) -> float:
    """First time in [0, horizon] (s) at which two disks touch while closing (sgn 1), or their
    footprints part (sgn -1, they overlap at 0), or inf.

    g(t) = sgn * (|A + B t + C t^2|^2 - R^2) (a quartic) is split into monotone pieces at the
    roots of g' (a cubic, itself split at the roots of the quadratic g''). On the first
    decreasing piece that starts at g <= tolc the event is at its start; on the first decreasing
    piece that crosses zero, it is the crossing (returned on the g <= 0 side of the bracket).
    """
    r2 = rr * rr
    c3 = sgn * 4.0 * (cx * cx + cy * cy)
    c2 = sgn * 6.0 * (bx * cx + by * cy)
    c1 = sgn * (2.0 * (bx * bx + by * by) + 4.0 * (ax * cx + ay * cy))
    c0 = sgn * 2.0 * (ax * bx + ay * by)
    nk, k1, k2, k3 = critical_points(c3, c2, c1, c0, horizon)
    a = 0.0
    fa = gap_val(ax, ay, bx, by, cx, cy, r2, a, sgn)
    for k in range(nk + 1):
        b = horizon
        if k < nk:
            b = k1 if k == 0 else (k2 if k == 1 else k3)
        if b <= a:
            continue
        fb = gap_val(ax, ay, bx, by, cx, cy, r2, b, sgn)
        if fb < fa:
            if fa <= tolc:
                return a
            if fb <= 0.0:
                return gap_root(ax, ay, bx, by, cx, cy, r2, sgn, a, b, fa, fb)
        a = b
        fa = fb
    return INF


@njit(cache=True)
def rail_time_curved(
    x: float, v: float, a: float, limit: float, horizon: float, outward: float
) -> float:
    """First tau in [0, horizon] (s) at which a coordinate x + v*tau + a*tau^2/2 moving
    ``outward`` (+1 or -1) reaches ``outward * limit``, or inf."""
    h = outward * x - limit
    hv = outward * v
    if h >= -TOUCH and hv > 0.0:
        return 0.0
    n, r1, _ = quad_roots_in(0.5 * outward * a, hv, h, 0.0, horizon)
    return r1 if n > 0 else INF


@njit(cache=True)
def rim_time(S: np.ndarray, L: np.ndarray, i: int, now: float) -> float:
    """Time (s) at which the centre of disk i, sliding on its carrier, leaves the carrier's
    footprint, or inf (riding with it, or stopping on it first).

    The motion relative to the carrier is a straight line (the model keeps the relative
    acceleration along the relative velocity), so the exit is a quadratic root twice over.
    """
    c = L[i, CARRIER]
    xi, yi, vxi, vyi = state_at(S, i, now)
    xc, yc, vxc, vyc = state_at(S, c, now)
    axi, ayi = accel_at(S, i, now)
    axc, ayc = accel_at(S, c, now)
    wx = vxi - vxc
    wy = vyi - vyc
    rx = axi - axc
    ry = ayi - ayc
    ws = np.sqrt(wx * wx + wy * wy)
    if ws > 0.0:
        dx = wx / ws
        dy = wy / ws
    else:
        ra = np.sqrt(rx * rx + ry * ry)
        if ra == 0.0:
            return INF
        dx = rx / ra
        dy = ry / ra
    apar = rx * dx + ry * dy
    px = xi - xc
    py = yi - yc
    b = px * dx + py * dy
    rc = S[c, RAD]
    c0 = px * px + py * py - rc * rc
    disc = b * b - c0
    if disc < 0.0:
        disc = 0.0
    s_out = -b + np.sqrt(disc)
    if s_out <= 0.0:
        return now if ws > 0.0 or apar > 0.0 else INF
    if apar < 0.0 and s_out >= 0.5 * ws * ws / -apar:
        return INF
    disc2 = ws * ws + 2.0 * apar * s_out
    if disc2 < 0.0:
        return INF
    tau = 2.0 * s_out / (ws + np.sqrt(disc2))
    horizon = INF
    if moving(S, i, now):
        horizon = S[i, TSTOP]
    if moving(S, c, now) and S[c, TSTOP] < horizon:
        horizon = S[c, TSTOP]
    t = now + tau
    return t if t < horizon else INF


@njit(cache=True, inline="always")
def hole_under(x: float, y: float, P: np.ndarray) -> int:
    """The pocket whose hole holds the centre (x, y) (m), or -1."""
    half = P[P_HALF]
    pr = P[P_POCKET_R]
    for k in range(4):
        cx = half if k == 1 or k == 2 else -half
        cy = half if k >= 2 else -half
        dx = x - cx
        dy = y - cy
        if dx * dx + dy * dy < pr * pr:
            return k
    return -1


@njit(cache=True, inline="always")
def hole_f(
    x: float, y: float, vx: float, vy: float, P: np.ndarray, best: float
) -> tuple[float, int]:
    """Path factor f (s) below ``best`` at which a centre moving from (x, y) along (vx, vy)
    first is over a pocket hole, and that pocket; (best, -1) if none."""
    half = P[P_HALF]
    pr = P[P_POCKET_R]
    pocket = -1
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
            pocket = k
    return best, pocket


@njit(cache=True, inline="always")
def rail_f(
    x: float, y: float, vx: float, vy: float, limit: float, best: float
) -> tuple[float, int]:
    """Path factor f (s) below ``best`` at which a centre moving from (x, y) along (vx, vy)
    reaches a rail's line at ``limit`` (m), and that side; (best, -1) if none."""
    hit = -1
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
            hit = side
    return best, hit


@njit(cache=True, inline="always")
def curved_own_event(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray
) -> tuple[float, int, int]:
    """Next own event of disk i sliding on a moving support (curved): the end of its piece, a
    rail, or leaving its support's footprint; as :func:`own_event`."""
    limit = P[P_HALF] - S[i, RAD]
    best = S[i, TSTOP]
    code = OWN_TRANS
    aux = 0
    x, y, vx, vy = state_at(S, i, now)
    hz = best - now
    for side in range(4):
        if side == SOUTH:
            tau = rail_time_curved(y, vy, S[i, AY], limit, hz, -1.0)
        elif side == WEST:
            tau = rail_time_curved(x, vx, S[i, AX], limit, hz, -1.0)
        elif side == NORTH:
            tau = rail_time_curved(y, vy, S[i, AY], limit, hz, 1.0)
        else:
            tau = rail_time_curved(x, vx, S[i, AX], limit, hz, 1.0)
        if now + tau < best:
            best = now + tau
            code = OWN_RAIL
            aux = side
    if L[i, CARRIER] >= 0:
        t = rim_time(S, L, i, now)
        if t < best:
            best = t
            code = OWN_RIM
            aux = 0
    return best, code, aux


@njit(cache=True, inline="always")
def straight_own_event(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray
) -> tuple[float, int, int]:
    """Next own event of disk i sliding straight: it stops, or first meets a pocket hole (layer
    0 only) or a rail (pockets win ties), or leaves its carrier's footprint; as
    :func:`own_event`."""
    decel = S[i, DEC]
    x = S[i, X]
    y = S[i, Y]
    vx = S[i, VX]
    vy = S[i, VY]
    sp = S[i, SP]
    best = f_end(sp, decel)
    code = OWN_STOP
    aux = 0
    if L[i, LAYER] == 0:
        f, pocket = hole_f(x, y, vx, vy, P, best)
        if pocket >= 0:
            best = f
            code = OWN_POCKET
            aux = pocket
    f, side = rail_f(x, y, vx, vy, P[P_HALF] - S[i, RAD], best)
    if side >= 0:
        best = f
        code = OWN_RAIL
        aux = side
    t_best = S[i, TSTOP]
    if code != OWN_STOP:
        t_best = S[i, T0] + f_to_tau(best, sp, decel)
    if L[i, CARRIER] >= 0:
        t = rim_time(S, L, i, now)
        if t < t_best:
            return t, OWN_RIM, 0
    return t_best, code, aux


@njit(cache=True)
def own_event(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray
) -> tuple[float, int, int]:
    """Next own event of disk i: (time s, OWN_* code, side or pocket index); (inf, 0, 0) if none.

    A layer-0 disk whose centre is over a hole falls at once; a moving one stops, or first meets
    a pocket hole or a rail (pockets win ties); a disk on a moving support ends its piece
    (transition) or leaves its support's footprint.
    """
    if L[i, STATUS] != ON_BOARD:
        return INF, 0, 0
    if S[i, CURV] != 0.0:
        return curved_own_event(S, L, i, now, P)
    if S[i, SP] == 0.0:
        if L[i, LAYER] == 0:
            pocket = hole_under(S[i, X], S[i, Y], P)
            if pocket >= 0:
                return now, OWN_POCKET, pocket
        return INF, 0, 0
    return straight_own_event(S, L, i, now, P)


@njit(cache=True, inline="always")
def support_exit_time(S: np.ndarray, L: np.ndarray, i: int, j: int, now: float) -> float:
    """Time (s) at which the footprint of the lower of i and j (adjacent layers, one moving)
    leaves that of the upper one, resting and not carried, once their overlap exceeds TOUCH
    (support exit, R6e); inf if none."""
    upper = i if L[i, LAYER] > L[j, LAYER] else j
    lower = j if L[i, LAYER] > L[j, LAYER] else i
    if moving(S, upper, now) or L[upper, CARRIER] >= 0:
        return INF
    xu, yu, _, _ = state_at(S, upper, now)
    xl, yl, vx, vy = state_at(S, lower, now)
    sm = np.sqrt(vx * vx + vy * vy)
    dx = xl - xu
    dy = yl - yu
    rr = S[i, RAD] + S[j, RAD]
    tolc = 2.0 * rr * TOUCH
    if S[lower, CURV] != 0.0:
        c = dx * dx + dy * dy - rr * rr
        if c >= -tolc:
            return INF
        ax, ay = accel_at(S, lower, now)
        tau = first_contact_quartic(
            dx, dy, vx, vy, 0.5 * ax, 0.5 * ay, rr, S[lower, TSTOP] - now, tolc, -1.0
        )
        return INF if tau == INF else now + tau
    decel = S[lower, DEC]
    a = vx * vx + vy * vy
    b = 2.0 * (vx * dx + vy * dy)
    c = dx * dx + dy * dy - rr * rr
    cmin = c - b * b / (4.0 * a)
    if not (c < -tolc or (b < 0.0 and cmin < -tolc)):
        return INF
    sq = np.sqrt(b * b - 4.0 * a * c)
    f2 = (-b + sq) / (2.0 * a) if b <= 0.0 else 2.0 * c / (-b - sq)
    if f2 >= f_end(sm, decel):
        return INF
    return now + f_to_tau(f2, sm, decel)


@njit(cache=True, inline="always")
def resting_hit_time(S: np.ndarray, mover: int, rest: int, now: float) -> float:
    """Time (s) at which disk ``mover``, sliding straight, touches the resting disk ``rest`` of
    its layer while closing (touching-and-closing is ``now``): its centre's straight path meets
    a circle of the two radii; inf if never."""
    xm, ym, vx, vy = state_at(S, mover, now)
    xr, yr, _, _ = state_at(S, rest, now)
    sm = np.sqrt(vx * vx + vy * vy)
    rr = S[mover, RAD] + S[rest, RAD]
    tolc = 2.0 * rr * TOUCH
    dx = xm - xr
    dy = ym - yr
    decel = S[mover, DEC]
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
    if f1 >= f_end(sm, decel):
        return INF
    return now + f_to_tau(f1, sm, decel)


@njit(cache=True, inline="always")
def meeting_time(S: np.ndarray, i: int, j: int, now: float, horizon: float) -> float:
    """Time (s) within ``horizon`` (s) from now at which disks i and j of one layer, both moving
    or either curved, touch while closing: the first contact root of their relative motion (a
    quartic); inf if none. A bounding box of two straight path pieces discards most pairs."""
    xi, yi, vxi, vyi = state_at(S, i, now)
    xj, yj, vxj, vyj = state_at(S, j, now)
    rr = S[i, RAD] + S[j, RAD]
    tolc = 2.0 * rr * TOUCH
    if S[i, CURV] == 0.0 and S[j, CURV] == 0.0:
        si = np.sqrt(vxi * vxi + vyi * vyi)
        sj = np.sqrt(vxj * vxj + vyj * vyj)
        di = S[i, DEC]
        dj = S[j, DEC]
        gi = horizon - 0.5 * di * horizon * horizon / si
        gj = horizon - 0.5 * dj * horizon * horizon / sj
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
        if di == dj:
            cx = -0.5 * di * (vxi / si - vxj / sj)
            cy = -0.5 * di * (vyi / si - vyj / sj)
        else:
            cx = -0.5 * (di * vxi / si - dj * vxj / sj)
            cy = -0.5 * (di * vyi / si - dj * vyj / sj)
    else:
        axi, ayi = accel_at(S, i, now)
        axj, ayj = accel_at(S, j, now)
        cx = 0.5 * (axi - axj)
        cy = 0.5 * (ayi - ayj)
    tau = first_contact_quartic(
        xi - xj, yi - yj, vxi - vxj, vyi - vyj, cx, cy, rr, horizon, tolc, 1.0
    )
    if tau == INF:
        return INF
    return now + tau


@njit(cache=True)
def pair_time(S: np.ndarray, L: np.ndarray, i: int, j: int, now: float, P: np.ndarray) -> float:
    """Next event time (s) of the pair (i, j) from ``now``, or inf.

    Same layer: the first contact while closing (touching-and-closing is ``now``; touching-and-
    separating is no event). Adjacent layers: the moment a moving lower disk's footprint leaves a
    resting upper disk's that it does not carry (support exit, R6e), counted only when the
    overlap exceeds TOUCH.
    """
    if L[i, STATUS] != ON_BOARD or L[j, STATUS] != ON_BOARD:
        return INF
    li = L[i, LAYER]
    lj = L[j, LAYER]
    if li != lj and li != lj + 1 and lj != li + 1:
        return INF
    mi = moving(S, i, now)
    mj = moving(S, j, now)
    if not mi and not mj:
        return INF  # both at rest: the common case
    if li != lj:
        return support_exit_time(S, L, i, j, now)
    straight = S[i, CURV] == 0.0 and S[j, CURV] == 0.0
    if not mi or not mj:
        mover = i if mi else j
        if straight:
            return resting_hit_time(S, mover, j if mi else i, now)
        horizon = S[mover, TSTOP] - now
    else:
        horizon = min(S[i, TSTOP], S[j, TSTOP]) - now
    if horizon <= 0.0:
        return INF
    return meeting_time(S, i, j, now, horizon)


@njit(cache=True)
def set_pair(PT: np.ndarray, i: int, j: int, t: float) -> None:
    """PT[i, j] = t (i < j), keeping the row's earliest time in PT[i, i] (see first_pair)."""
    old = PT[i, j]
    PT[i, j] = t
    if t < PT[i, i]:
        PT[i, i] = t
    elif old == PT[i, i] and not t <= old:
        low = INF
        for k in range(i + 1, PT.shape[0]):
            if PT[i, k] < low:
                low = PT[i, k]
        PT[i, i] = low


@njit(cache=True)
def first_pair(PT: np.ndarray, best: float) -> tuple[float, int, int]:
    """The earliest pair time below ``best`` and its pair (i < j), the first in (i, j) order
    among equals, or (best, -1, -1): O(n) through the rows' earliest times on the diagonal."""
    bi = -1
    for i in range(PT.shape[0]):
        if PT[i, i] < best:
            best = PT[i, i]
            bi = i
    if bi < 0:
        return best, -1, -1
    bj = bi + 1
    while PT[bi, bj] != best:
        bj += 1
    return PT[bi, bj], bi, bj


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
    mi = moving(S, i, now)
    # the box around the straight path of i's centre until it stops: a disk resting farther than
    # the two radii (and PATH_MARGIN) from it can neither be hit nor lose its support
    box = mi and S[i, CURV] == 0.0 and S[i, TSTOP] < INF
    lox = hix = loy = hiy = 0.0
    if box:
        x0, y0, _, _ = state_at(S, i, now)
        x1, y1, _, _ = state_at(S, i, S[i, TSTOP])
        reach = S[i, RAD] + PATH_MARGIN
        lox = min(x0, x1) - reach
        hix = max(x0, x1) + reach
        loy = min(y0, y1) - reach
        hiy = max(y0, y1) + reach
    for k in range(S.shape[0]):
        if k == i:
            continue
        pt = INF  # a pair at rest has no event (pair_time's first case)
        mk = moving(S, k, now)
        if mk or mi:
            far = False
            if box and not mk:
                xk, yk, _, _ = state_at(S, k, now)
                rk = S[k, RAD]
                far = xk + rk < lox or xk - rk > hix or yk + rk < loy or yk - rk > hiy
            if not far:
                pt = pair_time(S, L, min(i, k), max(i, k), now, P)
        set_pair(PT, min(i, k), max(i, k), pt)


@njit(cache=True, inline="always")
def retime(S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray, T: Tables) -> None:
    """:func:`refresh` disk i's rows of the run's tables T."""
    refresh(S, L, i, now, P, T[0], T[1], T[2], T[3])


@njit(cache=True, inline="always")
def next_event(T: Tables) -> tuple[float, int, int]:
    """The earliest event in the tables T: (time s, i, j), j = -1 for disk i's own event, own
    events by disk index before pairs by (i, j) among equals; (inf, -1, -1) if none."""
    PT = T[0]
    OT = T[1]
    best = INF
    bi = -1
    bj = -1
    for i in range(OT.shape[0]):
        if OT[i] < best:
            best = OT[i]
            bi = i
    best, pi, pj = first_pair(PT, best)
    if pi >= 0:
        bi = pi
        bj = pj
    return best, bi, bj


# --- impacts -------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def pressing(
    S: np.ndarray,
    i: int,
    j: int,
    vxi: float,
    vyi: float,
    vxj: float,
    vyj: float,
    nx: float,
    ny: float,
) -> float:
    """The acceleration (m/s^2) with which their motion laws press disks i and j (velocities
    given) together along the line of centres (nx, ny) from i to j."""
    si = np.sqrt(vxi * vxi + vyi * vyi)
    sj = np.sqrt(vxj * vxj + vyj * vyj)
    ax = 0.0
    ay = 0.0
    if S[i, CURV] != 0.0:
        ax += S[i, AX]
        ay += S[i, AY]
    elif si > 0.0:
        ax -= S[i, DEC] * vxi / si
        ay -= S[i, DEC] * vyi / si
    if S[j, CURV] != 0.0:
        ax -= S[j, AX]
        ay -= S[j, AY]
    elif sj > 0.0:
        ax += S[j, DEC] * vxj / sj
        ay += S[j, DEC] * vyj / sj
    return ax * nx + ay * ny


@njit(cache=True, inline="always")
def closing_speed(S: np.ndarray, i: int, j: int, now: float) -> float:
    """The speed (m/s) at which disks i and j approach each other along their line of centres."""
    xi, yi, vxi, vyi = state_at(S, i, now)
    xj, yj, vxj, vyj = state_at(S, j, now)
    dx = xj - xi
    dy = yj - yi
    d = np.sqrt(dx * dx + dy * dy)
    return float(((vxi - vxj) * dx + (vyi - vyj) * dy) / d)


@njit(cache=True, inline="always")
def impulse(
    S: np.ndarray,
    i: int,
    j: int,
    vxi: float,
    vyi: float,
    vxj: float,
    vyj: float,
    wi: float,
    wj: float,
    nx: float,
    ny: float,
    vn: float,
    P: np.ndarray,
) -> tuple[float, float, float, float, float, float]:
    """Velocities (m/s) and spins (rad/s) of i and j after the impulse of their impact at the
    normal approach speed vn > 0 along (nx, ny): (vxi, vyi, vxj, vyj, wi, wj)."""
    mi = S[i, MASS]
    mj = S[j, MASS]
    jn = (1.0 + P[P_E_DISK]) * vn / (1.0 / mi + 1.0 / mj)
    vxi -= jn / mi * nx
    vyi -= jn / mi * ny
    vxj += jn / mj * nx
    vyj += jn / mj * ny
    mu = P[P_MU_DISK]
    if mu > 0.0:
        ri = S[i, RAD]
        rj = S[j, RAD]
        # slip of the contact points along t = (-ny, nx); uniform disks: r^2/I = 2/m
        ut = (vyi - vyj) * nx - (vxi - vxj) * ny + wi * ri + wj * rj
        pt = min(mu * jn, abs(ut) / (3.0 * (1.0 / mi + 1.0 / mj)))
        if ut > 0.0:
            pt = -pt
        vxi -= pt / mi * ny
        vyi += pt / mi * nx
        vxj += pt / mj * ny
        vyj -= pt / mj * nx
        wi += 2.0 * pt / (mi * ri)
        wj += 2.0 * pt / (mj * rj)
    return vxi, vyi, vxj, vyj, wi, wj


@njit(cache=True)
def collide(S: np.ndarray, i: int, j: int, now: float, P: np.ndarray, again: bool) -> bool:
    """Impact of i and j (at their states at now): an impulse along the line of centres with
    restitution, and a tangential friction impulse of at most ``mu_disk`` times it that changes
    the spins (the throw of a cut). Returns True when the pair moved on as one instead.

    A pair meeting slower than STICK_SPEED while friction presses it together (inelastic
    collapse) moves on as one, with the centre-of-mass velocity and the larger of the two
    decelerations, unless its disks slide past each other fast enough to part by themselves
    (tangential speed^2 > distance * pressing acceleration, the curvature of the gap); the
    legacy rule (P_MERGE_ALL) merges those too. So does ``again``: the pair's previous impact
    was as slow (a series of ever smaller impacts that would never end, see run).
    """
    xi, yi, vxi, vyi = state_at(S, i, now)
    xj, yj, vxj, vyj = state_at(S, j, now)
    wi = spin_at(S, i, now, P)
    wj = spin_at(S, j, now, P)
    decel = P[P_DECEL]
    dx = xj - xi
    dy = yj - yi
    d = np.sqrt(dx * dx + dy * dy)
    nx = dx / d
    ny = dy / d
    mi = S[i, MASS]
    mj = S[j, MASS]
    vn = (vxi - vxj) * nx + (vyi - vyj) * ny
    if vn < STICK_SPEED:
        press = pressing(S, i, j, vxi, vyi, vxj, vyj, nx, ny)
        if vn <= 0.0 or press > 0.0 or again:
            merge = True
            if vn > 0.0 and P[P_MERGE_ALL] == 0.0 and not again:
                vt = (vyi - vyj) * nx - (vxi - vxj) * ny
                merge = vt * vt <= d * press
            if merge:
                m = mi + mj
                vx = (mi * vxi + mj * vxj) / m
                vy = (mi * vyi + mj * vyj) / m
                # one motion law for both, so that they stay together: the larger deceleration
                # (a loaded support's), which its pile keeps while they touch
                dec = decel
                if S[i, CURV] == 0.0 and S[j, CURV] == 0.0:
                    dec = max(S[i, DEC], S[j, DEC])
                set_motion(S, i, now, xi, yi, vx, vy, wi, dec)
                set_motion(S, j, now, xj, yj, vx, vy, wj, dec)
                return True
    if vn > 0.0:
        vxi, vyi, vxj, vyj, wi, wj = impulse(S, i, j, vxi, vyi, vxj, vyj, wi, wj, nx, ny, vn, P)
    set_motion(S, i, now, xi, yi, vxi, vyi, wi, decel)
    set_motion(S, j, now, xj, yj, vxj, vyj, wj, decel)
    return False


@njit(cache=True)
def collide_fixed(S: np.ndarray, i: int, k: int, now: float, P: np.ndarray) -> bool:
    """Impact of the moving disk i on disk k, which cannot move (a stacked disk lying across
    others, held by them): as on a rail, an impulse along the line of centres with
    ``restitution_disk`` and a friction impulse of at most ``mu_disk`` times it on i alone. A
    slow approach pressed by friction stops i against k (returns True)."""
    xi, yi, vxi, vyi = state_at(S, i, now)
    xk, yk, _, _ = state_at(S, k, now)
    wi = spin_at(S, i, now, P)
    dx = xk - xi
    dy = yk - yi
    d = np.sqrt(dx * dx + dy * dy)
    nx = dx / d
    ny = dy / d
    vn = vxi * nx + vyi * ny
    if vn < STICK_SPEED:
        axi, ayi = accel_at(S, i, now)
        if vn <= 0.0 or axi * nx + ayi * ny > 0.0:
            set_motion(S, i, now, xi, yi, 0.0, 0.0, wi, P[P_DECEL])
            return True
    if vn > 0.0:
        jn = (1.0 + P[P_E_DISK]) * vn
        vxi -= jn * nx
        vyi -= jn * ny
        mu = P[P_MU_DISK]
        if mu > 0.0:
            r = S[i, RAD]
            ut = vyi * nx - vxi * ny + wi * r
            pt = min(mu * jn, abs(ut) / 3.0)
            if ut > 0.0:
                pt = -pt
            vxi -= pt * ny
            vyi += pt * nx
            wi += 2.0 * pt / r
    set_motion(S, i, now, xi, yi, vxi, vyi, wi, P[P_DECEL])
    return False


@njit(cache=True)
def rail_bounce(S: np.ndarray, i: int, side: int, now: float, P: np.ndarray) -> None:
    """Disk i (rebased to now) rebounds from a rail: the normal velocity reverses times
    ``restitution_rail``; a friction impulse of at most ``mu_rail`` times the normal one slows
    the slip of the contact point along the rail and changes the spin."""
    limit = P[P_HALF] - S[i, RAD]
    x = S[i, X]
    y = S[i, Y]
    vx = S[i, VX]
    vy = S[i, VY]
    w = S[i, W]
    e = P[P_E_RAIL]
    vn = 0.0
    if side == SOUTH:
        y = -limit
        vn = -vy
        vy = -e * vy
    elif side == NORTH:
        y = limit
        vn = vy
        vy = -e * vy
    elif side == WEST:
        x = -limit
        vn = -vx
        vx = -e * vx
    else:
        x = limit
        vn = vx
        vx = -e * vx
    mu = P[P_MU_RAIL]
    if mu > 0.0 and vn > 0.0:
        # outward normal n, tangent t = z x n; contact point slip = v.t + w*r
        nx = 0.0
        ny = 0.0
        if side == SOUTH:
            ny = -1.0
        elif side == NORTH:
            ny = 1.0
        elif side == WEST:
            nx = -1.0
        else:
            nx = 1.0
        tx = -ny
        ty = nx
        r = S[i, RAD]
        ut = vx * tx + vy * ty + w * r
        pt = min(mu * (1.0 + e) * vn, abs(ut) / 3.0)
        if ut > 0.0:
            pt = -pt
        vx += pt * tx
        vy += pt * ty
        w += 2.0 * pt / r
    set_motion(S, i, now, x, y, vx, vy, w, P[P_DECEL])


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


@njit(cache=True, inline="always")
def flies_off(
    S: np.ndarray, i: int, side: int, P: np.ndarray, seed: np.uint64, counter: int
) -> bool:
    """R5c/R5d/R6c: does disk i, rebased to its impact on rail ``side``, leave the board? Above
    the fly-off speed its chance grows linearly with the normal speed up to P_FLY_PMAX; the draw
    is uniform01(seed, counter)."""
    vn = abs(S[i, VY]) if side in (SOUTH, NORTH) else abs(S[i, VX])
    if not vn > P[P_FLY_V0]:
        return False
    frac = (vn - P[P_FLY_V0]) / (P[P_FLY_V1] - P[P_FLY_V0])
    if frac > 1.0:
        frac = 1.0
    return bool(uniform01(seed, counter) < P[P_FLY_PMAX] * frac)


# --- piles (R6e) ---------------------------------------------------------------------------------
@njit(cache=True)
def overlaps(S: np.ndarray, i: int, j: int, now: float) -> bool:
    """Do the footprints of i and j overlap by more than TOUCH at time now?"""
    xi, yi, _, _ = state_at(S, i, now)
    xj, yj, _, _ = state_at(S, j, now)
    rr = S[i, RAD] + S[j, RAD]
    dx = xi - xj
    dy = yi - yj
    return bool(dx * dx + dy * dy < rr * rr - 2.0 * rr * TOUCH)


@njit(cache=True)
def supported(S: np.ndarray, L: np.ndarray, i: int, layer: int, now: float) -> bool:
    """Would disk i be supported on ``layer`` (layer 0, or a disk of layer-1 under it) at now?"""
    if layer == 0:
        return True
    for k in range(S.shape[0]):
        if (
            k != i
            and L[k, STATUS] == ON_BOARD
            and L[k, LAYER] == layer - 1
            and overlaps(S, i, k, now)
        ):
            return True
    return False


@njit(cache=True)
def push_held(
    S: np.ndarray,
    L: np.ndarray,
    below: int,
    layer: int,
    now: float,
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
            and overlaps(S, k, below, now)
        ):
            stack[top] = k
            queued[k] = True
            top += 1
    return top


@njit(cache=True)
def settle(
    S: np.ndarray, L: np.ndarray, top: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """R6e: drop every queued disk (``stack[:top]`` of T) that is left without support, and in
    turn the disks it held.

    A dropping disk comes down where it stands, keeping its velocity, to the highest layer that
    supports it (one ``dropped`` event); one still supported at rest counts as disturbed
    (tip_all). ``stack`` (n + 1 ints) and ``queued`` (n flags) are
    work space: a disk is queued at most once at a time. Returns the log length.
    """
    stack = T[6]
    queued = T[7]
    while top > 0:
        top -= 1
        u = stack[top]
        queued[u] = False
        old = L[u, LAYER]
        if L[u, STATUS] != ON_BOARD or old == 0:
            continue
        if supported(S, L, u, old, now):
            if P[P_STACK] > 0.0 and not moving(S, u, now):
                rebase(S, u, now, P)  # a support left it: its pile is disturbed (tip_all)
            continue
        new = old - 1
        while new > 0 and not supported(S, L, u, new, now):
            new -= 1
        L[u, LAYER] = new
        L[u, CARRIER] = -1
        L[u, HOLD] = FREE
        rebase(S, u, now, P)
        n_log = log_event(T, n_log, now, DROPPED, u, -1, new, S, L, P)
        retime(S, L, u, now, P, T)
        top = push_held(S, L, u, old + 1, now, stack, queued, top)
    return n_log


@njit(cache=True, inline="always")
def drop_unsupported(
    S: np.ndarray,
    L: np.ndarray,
    first: int,
    itself: bool,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
) -> int:
    """R6e: settle ``first`` itself (``itself``) or the disks resting on it; see settle."""
    stack = T[6]
    queued = T[7]
    top = 0
    if itself:
        stack[0] = first
        queued[first] = True
        top = 1
    else:
        top = push_held(S, L, first, L[first, LAYER] + 1, now, stack, queued, 0)
    return settle(S, L, top, now, P, T, n_log)


@njit(cache=True)
def centre_over(S: np.ndarray, u: int, c: int, now: float) -> bool:
    """Is the centre of disk u strictly over the footprint of disk c at time now?"""
    xu, yu, _, _ = state_at(S, u, now)
    xc, yc, _, _ = state_at(S, c, now)
    dx = xu - xc
    dy = yu - yc
    return bool(dx * dx + dy * dy < S[c, RAD] * S[c, RAD])


@njit(cache=True)
def find_carrier(S: np.ndarray, L: np.ndarray, u: int, now: float, skip: int) -> int:
    """The disk of the layer below (other than ``skip``, and not tipping) whose footprint holds
    disk u's centre, or -1."""
    layer = L[u, LAYER]
    if layer == 0:
        return -1
    for k in range(S.shape[0]):
        if (
            k != u
            and k != skip
            and L[k, STATUS] == ON_BOARD
            and L[k, LAYER] == layer - 1
            and L[k, HOLD] != TIPPING
            and centre_over(S, u, k, now)
        ):
            return k
    return -1


@njit(cache=True)
def has_riders(L: np.ndarray, i: int) -> bool:
    """Does any disk ride on disk i?"""
    for k in range(L.shape[0]):  # noqa: SIM110 (numba compiles no generators)
        if L[k, CARRIER] == i and L[k, STATUS] == ON_BOARD:
            return True
    return False


@njit(cache=True)
def in_pile(L: np.ndarray, i: int, P: np.ndarray) -> bool:
    """Does disk i ride on a support or carry a disk (stack friction on)?"""
    return P[P_STACK] > 0.0 and (L[i, CARRIER] >= 0 or has_riders(L, i))


@njit(cache=True)
def pile_members(L: np.ndarray, root: int, WI: np.ndarray) -> int:
    """Disks carried by ``root`` (directly or not) in breadth-first order into WI[:, 0], with the
    row of each one's carrier in WI[:, 1] (-1 for the root); returns their number."""
    WI[0, 0] = root
    WI[0, 1] = -1
    m = 1
    head = 0
    while head < m:
        c = WI[head, 0]
        for k in range(L.shape[0]):
            if L[k, CARRIER] == c and L[k, STATUS] == ON_BOARD:
                WI[m, 0] = k
                WI[m, 1] = head
                m += 1
        head += 1
    return m


@njit(cache=True)
def in_sub(WI: np.ndarray, r: int, q: int, b: int) -> bool:
    """Is pile row r row q or carried (directly or not) by it within unit b?"""
    a = r
    while a > q and WI[a, 2] == b:
        a = WI[a, 1]
    return a == q


@njit(cache=True)
def pile_forces(m: int, P: np.ndarray, WF: np.ndarray, WI: np.ndarray) -> None:
    """Accelerations (WF[:, 7:9]) of the rigid units of a pile, from the velocities, loads and
    units in WF/WI (see pile_update).

    The root unit slides on the board: friction mu*g times the weight of the whole pile against
    its velocity, plus the pull of the disks sliding on it projected on its path (a resting root
    stays put: the board's static friction holds it). A unit sliding on its carrier feels
    mu_s*g times the weight it brings down, against its velocity relative to the carrier, plus the
    pull of the disks sliding on it; its acceleration relative to the carrier is kept along the
    relative velocity, so that the relative motion is straight and stops in closed form. A unit
    that has just started to slip (no relative velocity yet) gets the full capped force.
    """
    decel = P[P_DECEL]
    stackg = P[P_STACK]
    for q in range(m):
        WF[q, 6] = 0.0
    for q in range(m):
        WF[WI[q, 2], 6] += WF[q, 4]
    for b in range(m):
        if WI[b, 2] != b:
            continue
        # force from the disks sliding on this unit (base rows s whose carrier is in the unit)
        fx = 0.0
        fy = 0.0
        for s in range(1, m):
            if WI[s, 2] == s and WI[WI[s, 1], 2] == b:
                fx += stackg * WF[s, 5] * WF[s, 9]
                fy += stackg * WF[s, 5] * WF[s, 10]
        vx = WF[b, 2]
        vy = WF[b, 3]
        if b == 0:
            sp = np.sqrt(vx * vx + vy * vy)
            WF[b, 7] = 0.0
            WF[b, 8] = 0.0
            WF[b, 12] = decel
            if sp > 0.0:
                ux = vx / sp
                uy = vy / sp
                dec = (decel * WF[b, 5] - (fx * ux + fy * uy)) / WF[b, 6]
                if fx == 0.0 and fy == 0.0 and WF[b, 5] == WF[b, 6]:
                    dec = decel
                if dec < 0.0:
                    dec = 0.0
                WF[b, 12] = dec
                WF[b, 7] = -dec * ux
                WF[b, 8] = -dec * uy
            continue
        p = WI[WI[b, 1], 2]
        apx = WF[p, 7]
        apy = WF[p, 8]
        if WI[b, 3] == 1:
            # onset of slip: friction mu_s*g*load in the direction -e (e = pull on the carrier)
            WF[b, 7] = (-stackg * WF[b, 5] * WF[b, 9] + fx) / WF[b, 6]
            WF[b, 8] = (-stackg * WF[b, 5] * WF[b, 10] + fy) / WF[b, 6]
            continue
        dx = WF[b, 9]
        dy = WF[b, 10]
        fpar = -stackg * WF[b, 5] + fx * dx + fy * dy
        kappa = fpar / WF[b, 6] - (apx * dx + apy * dy)
        WF[b, 7] = apx + kappa * dx
        WF[b, 8] = apy + kappa * dy


@njit(cache=True, inline="always")
def pile_load(S: np.ndarray, m: int, now: float, WF: np.ndarray, WI: np.ndarray) -> None:
    """Work rows of the m pile members (WI[:, 0]): position and velocity at now, mass, and the
    load each brings down on its carrier (its mass and all it carries); no slip onset yet."""
    for q in range(m):
        k = WI[q, 0]
        x, y, vx, vy = state_at(S, k, now)
        WF[q, 0] = x
        WF[q, 1] = y
        WF[q, 2] = vx
        WF[q, 3] = vy
        WF[q, 4] = S[k, MASS]
        WF[q, 5] = S[k, MASS]
        WI[q, 3] = 0
    for q in range(m - 1, 0, -1):
        WF[WI[q, 1], 5] += WF[q, 5]


@njit(cache=True, inline="always")
def pile_units(m: int, WF: np.ndarray, WI: np.ndarray) -> None:
    """Rigid units of the pile (WI[:, 2], the unit's base row): a member rides with its carrier's
    unit when their relative speed is below SNAP_SPEED, else it slides (direction WF[:, 9:11])."""
    for q in range(m):
        WI[q, 2] = q
        WI[q, 4] = 0
        if q == 0:
            continue
        p = WI[q, 1]
        wx = WF[q, 2] - WF[p, 2]
        wy = WF[q, 3] - WF[p, 3]
        ws = np.sqrt(wx * wx + wy * wy)
        if ws < SNAP_SPEED:
            b = WI[p, 2]
            if ws != 0.0:
                # caught up: the disk and its carrier's unit take their common velocity
                # (momentum kept, energy lost)
                msum = WF[q, 4]
                px = WF[q, 4] * WF[q, 2]
                py = WF[q, 4] * WF[q, 3]
                for r in range(q):
                    if WI[r, 2] == b:
                        msum += WF[r, 4]
                        px += WF[r, 4] * WF[r, 2]
                        py += WF[r, 4] * WF[r, 3]
                for r in range(q + 1):
                    if r == q or WI[r, 2] == b:
                        WF[r, 2] = px / msum
                        WF[r, 3] = py / msum
                        WI[r, 4] = 1
            WI[q, 2] = b
            WF[q, 9] = 0.0
            WF[q, 10] = 0.0
        else:
            WF[q, 9] = wx / ws
            WF[q, 10] = wy / ws


@njit(cache=True, inline="always")
def pile_slip(m: int, P: np.ndarray, WF: np.ndarray, WI: np.ndarray) -> None:
    """A unit riding on another slips (a unit of its own, slip onset flagged) when friction
    cannot give it the carrier unit's acceleration; repeated until every unit holds, leaving the
    units' accelerations (pile_forces) in WF[:, 7:9]."""
    stackg = P[P_STACK]
    for _ in range(m):
        pile_forces(m, P, WF, WI)
        slip = -1
        for q in range(1, m):
            b = WI[q, 2]
            if b == q:
                continue
            msub = 0.0
            rx = 0.0
            ry = 0.0
            for r in range(q, m):
                if WI[r, 2] == b and in_sub(WI, r, q, b):
                    msub += WF[r, 4]
                elif WI[r, 2] == r and in_sub(WI, WI[r, 1], q, b):
                    rx += stackg * WF[r, 5] * WF[r, 9]
                    ry += stackg * WF[r, 5] * WF[r, 10]
            fx = msub * WF[b, 7] - rx
            fy = msub * WF[b, 8] - ry
            cap = stackg * WF[q, 5] * (1.0 + 1e-9)
            if fx * fx + fy * fy > cap * cap:
                f = np.sqrt(fx * fx + fy * fy)
                WF[q, 9] = -fx / f
                WF[q, 10] = -fy / f
                WI[q, 3] = 1
                slip = q
                break
        if slip < 0:
            break
        old = WI[slip, 2]
        for r in range(m - 1, slip - 1, -1):
            if WI[r, 2] == old and in_sub(WI, r, slip, old):
                WI[r, 2] = slip


@njit(cache=True, inline="always")
def pile_laws(m: int, now: float, WF: np.ndarray, WI: np.ndarray) -> None:
    """The new motion law of each unit: straight (the root, or on a resting carrier; its
    deceleration in WF[:, 12]) or curved (WF[:, 12] = -1) until its relative stop (WF[:, 11], s;
    inf if none)."""
    for q in range(m):
        b = WI[q, 2]
        if b != q:
            continue
        WF[b, 11] = INF
        if b == 0:
            continue
        p = WI[WI[b, 1], 2]
        if WF[p, 7] == 0.0 and WF[p, 8] == 0.0 and WF[p, 2] == 0.0 and WF[p, 3] == 0.0:
            WF[b, 12] = np.sqrt(WF[b, 7] * WF[b, 7] + WF[b, 8] * WF[b, 8])
            continue
        WF[b, 12] = -1.0
        if WI[b, 3] == 0:
            kr = (WF[b, 7] - WF[p, 7]) * WF[b, 9] + (WF[b, 8] - WF[p, 8]) * WF[b, 10]
            if kr < 0.0:
                wx = WF[b, 2] - WF[p, 2]
                wy = WF[b, 3] - WF[p, 3]
                WF[b, 11] = now + np.sqrt(wx * wx + wy * wy) / -kr


@njit(cache=True, inline="always")
def pile_changes(S: np.ndarray, m: int, now: float, WF: np.ndarray, WI: np.ndarray) -> None:
    """Flag (WI[b, 4]) every unit whose motion law or velocity changes: it is set anew as a
    whole (same reference, same stop)."""
    for q in range(m):
        b = WI[q, 2]
        k = WI[q, 0]
        if WI[q, 4] == 1:
            WI[b, 4] = 1
        elif WF[b, 12] >= 0.0:
            at_rest = WF[b, 2] == 0.0 and WF[b, 3] == 0.0 and not moving(S, k, now)
            if S[k, CURV] != 0.0 or (S[k, DEC] != WF[b, 12] and not at_rest):
                WI[b, 4] = 1
        elif S[k, CURV] == 0.0 or S[k, AX] != WF[b, 7] or S[k, AY] != WF[b, 8]:
            WI[b, 4] = 1


@njit(cache=True, inline="always")
def pile_apply(
    S: np.ndarray,
    L: np.ndarray,
    m: int,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
    ex1: int,
    ex2: int,
) -> int:
    """Give the members of every flagged unit its new law (a curved piece also ends with its
    carrier's), with a ``carried`` event except for ``ex1``/``ex2``; recompute every member's
    events. Returns the log length."""
    WF = T[8]
    WI = T[9]
    for q in range(m):
        b = WI[q, 2]
        k = WI[q, 0]
        if WF[b, 12] < 0.0:
            # curved: its piece also ends with its carrier's
            c = WI[WI[b, 1], 0]
            if moving(S, c, now) and S[c, TSTOP] < WF[b, 11]:
                WF[b, 11] = S[c, TSTOP]
        if WI[b, 4] == 0:
            if WF[b, 12] < 0.0:
                S[k, TSTOP] = WF[b, 11]
            continue
        w = spin_at(S, k, now, P)
        if WF[b, 12] >= 0.0:
            set_motion(S, k, now, WF[q, 0], WF[q, 1], WF[b, 2], WF[b, 3], w, WF[b, 12])
        else:
            set_curved(
                S, k, now, WF[q, 0], WF[q, 1], WF[b, 2], WF[b, 3], w, WF[b, 7], WF[b, 8], WF[b, 11]
            )
        if k != ex1 and k != ex2:
            n_log = log_event(T, n_log, now, CARRIED, k, -1, 0, S, L, P)
    for q in range(m):
        retime(S, L, WI[q, 0], now, P, T)
    return n_log


@njit(cache=True)
def pile_update(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
    ex1: int,
    ex2: int,
) -> int:
    """Recompute the motion of every disk of the pile holding disk i from their velocities at now
    (stack friction, loads on the support; docs/physics.md "Stacks").

    Disks whose motion law changes get a ``carried`` event, except ``ex1``/``ex2`` (the caller
    logs them); every member's events are recomputed. Returns the log length.
    """
    WF = T[8]
    WI = T[9]
    root = i
    while L[root, CARRIER] >= 0:
        root = L[root, CARRIER]
    m = pile_members(L, root, WI)
    decel = P[P_DECEL]
    if m == 1:
        if S[root, CURV] == 0.0 and S[root, DEC] == decel:
            return n_log
        x, y, vx, vy = state_at(S, root, now)
        set_motion(S, root, now, x, y, vx, vy, spin_at(S, root, now, P), decel)
        if root != ex1 and root != ex2:
            n_log = log_event(T, n_log, now, CARRIED, root, -1, 0, S, L, P)
        retime(S, L, root, now, P, T)
        return n_log
    pile_load(S, m, now, WF, WI)
    pile_units(m, WF, WI)
    pile_slip(m, P, WF, WI)
    pile_laws(m, now, WF, WI)
    pile_changes(S, m, now, WF, WI)
    return pile_apply(S, L, m, now, P, T, n_log, ex1, ex2)


@njit(cache=True)
def move_with_pile(
    S: np.ndarray, L: np.ndarray, i: int, j: int, now: float, P: np.ndarray, T: Tables
) -> None:
    """A pair of the board merged by :func:`collide` moves on as one. When one of them carries
    a pile, its motion is set by the pile once the impact has changed it (pile_update: the
    riders it jolted into sliding weigh on it and pull it): the other disk takes that motion
    (velocity and deceleration), else the two would press into each other at once."""
    ri = has_riders(L, i)
    if ri == has_riders(L, j):
        return
    lead = i if ri else j
    free = j if ri else i
    x, y, _, _ = state_at(S, free, now)
    _, _, vx, vy = state_at(S, lead, now)
    set_motion(S, free, now, x, y, vx, vy, spin_at(S, free, now, P), S[lead, DEC])
    retime(S, L, free, now, P, T)


@njit(cache=True)
def restack(S: np.ndarray, L: np.ndarray, now: float, P: np.ndarray, T: Tables, n_log: int) -> int:
    """After layers or supports changed: every stacked disk rides on the disk under its centre,
    if any; one without such a disk rests where it is (lying across others, R6e); every pile's
    motion is recomputed. Without stack friction nothing rides: nothing is done. Returns the log
    length."""
    if P[P_STACK] == 0.0:
        return n_log
    n = S.shape[0]
    for u in range(n):
        if L[u, STATUS] != ON_BOARD:
            continue
        if L[u, LAYER] == 0:
            L[u, CARRIER] = -1
            L[u, HOLD] = FREE
            continue
        c = L[u, CARRIER]
        if (
            c >= 0
            and L[c, STATUS] == ON_BOARD
            and L[c, LAYER] == L[u, LAYER] - 1
            and centre_over(S, u, c, now)
        ) or L[u, HOLD] < FREE:
            continue
        c = find_carrier(S, L, u, now, -1)
        L[u, CARRIER] = c
        if c < 0 and moving(S, u, now):
            stop_at(S, u, now, P)
            n_log = log_event(T, n_log, now, STOPPED, u, -1, 0, S, L, P)
            retime(S, L, u, now, P, T)
    for u in range(n):
        if L[u, STATUS] != ON_BOARD or L[u, CARRIER] >= 0:
            continue
        stale = S[u, CURV] != 0.0 or (S[u, DEC] != P[P_DECEL] and moving(S, u, now))
        if stale or has_riders(L, u):
            n_log = pile_update(S, L, u, now, P, T, n_log, -1, -1)
    return n_log


@njit(cache=True, inline="always")
def ahead(ax: float, ay: float, vx: float, vy: float) -> bool:
    """Is the unit vector v within the half-turn counter-clockwise from the unit vector a (a
    itself included, its opposite not), to 1e-12?"""
    cr = ax * vy - ay * vx
    return bool(cr > 1e-12 or (cr >= -1e-12 and ax * vx + ay * vy > 0.0))


@njit(cache=True, inline="always")
def lens_arc(
    dx: float, dy: float, ru: float, rk: float
) -> tuple[float, float, float, float, float, float]:
    """The contact of a disk of radius ru (m) with a support of radius rk whose centre is
    (dx, dy) (m) from its own, beyond rk: the lens where their footprints overlap, seen from the
    disk's centre. Returns the unit vector to the support's centre and the clockwise and
    counter-clockwise ends of the arc of directions the lens covers (less than a half-turn):
    bounded by the tangents to the support's rim when they touch it inside the disk, else by
    the corners of the lens."""
    d2 = dx * dx + dy * dy
    d = np.sqrt(d2)
    cx = dx / d
    cy = dy / d
    if d2 <= ru * ru + rk * rk:
        sa = rk / d
        ca = np.sqrt(d2 - rk * rk) / d
    else:
        ca = (d2 + ru * ru - rk * rk) / (2.0 * d * ru)
        sa = np.sqrt(max(0.0, 1.0 - ca * ca))
    return cx, cy, cx * ca + cy * sa, cy * ca - cx * sa, cx * ca - cy * sa, cy * ca + cx * sa


@njit(cache=True, inline="always")
def is_support(S: np.ndarray, L: np.ndarray, u: int, k: int, now: float) -> bool:
    """Is disk k a disk of the layer below stacked disk u overlapping its footprint?"""
    return bool(
        k != u
        and L[k, STATUS] == ON_BOARD
        and L[k, LAYER] == L[u, LAYER] - 1
        and overlaps(S, u, k, now)
    )


@njit(cache=True)
def held_up(S: np.ndarray, L: np.ndarray, u: int, now: float) -> tuple[bool, float, float]:
    """R6e: is stacked disk u held up by its supports (the disks of the layer below overlapping
    its footprint) at time now: its centre over one of them (to TOUCH), or over the convex hull
    of their contacts with it (the lenses, see lens_arc)? If not, also the unit vector away from
    them (against the sum of the directions to their centres), the way it tips. A disk without
    supports counts as held: it drops where it is (settle)."""
    xu, yu, _, _ = state_at(S, u, now)
    ru = S[u, RAD]
    n = S.shape[0]
    sx = 0.0
    sy = 0.0
    m = 0
    for k in range(n):
        if not is_support(S, L, u, k, now):
            continue
        xk, yk, _, _ = state_at(S, k, now)
        dx = xk - xu
        dy = yk - yu
        rk = S[k, RAD] + TOUCH
        if dx * dx + dy * dy <= rk * rk:
            return True, 0.0, 0.0
        d = np.sqrt(dx * dx + dy * dy)
        sx += dx / d
        sy += dy / d
        m += 1
    if m == 0:
        return True, 0.0, 0.0
    # the centre lies outside the hull iff every lens lies within the half-turn counter-
    # clockwise from the clockwise end of one of them
    for k in range(n):
        if not is_support(S, L, u, k, now):
            continue
        xk, yk, _, _ = state_at(S, k, now)
        _, _, ax, ay, _, _ = lens_arc(xk - xu, yk - yu, ru, S[k, RAD])
        outside = True
        for j in range(n):
            if not is_support(S, L, u, j, now):
                continue
            xj, yj, _, _ = state_at(S, j, now)
            _, _, px, py, qx, qy = lens_arc(xj - xu, yj - yu, ru, S[j, RAD])
            if not (ahead(ax, ay, px, py) and ahead(ax, ay, qx, qy)):
                outside = False
                break
        if outside:
            s = np.sqrt(sx * sx + sy * sy)
            return False, -sx / s, -sy / s
    return True, 0.0, 0.0


@njit(cache=True)
def clear_distance(S: np.ndarray, L: np.ndarray, u: int, ex: float, ey: float, now: float) -> float:
    """How far (m) stacked disk u must slide along the unit vector (ex, ey) for its footprint to
    leave every support's."""
    xu, yu, _, _ = state_at(S, u, now)
    far = 0.0
    for k in range(S.shape[0]):
        if not is_support(S, L, u, k, now):
            continue
        xk, yk, _, _ = state_at(S, k, now)
        qx = xu - xk
        qy = yu - yk
        rr = S[u, RAD] + S[k, RAD]
        b = qx * ex + qy * ey
        s = -b + np.sqrt(max(0.0, b * b - (qx * qx + qy * qy - rr * rr)))
        if s > far:
            far = s
    return far


@njit(cache=True)
def tip_off(
    S: np.ndarray, L: np.ndarray, u: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """R6e: stacked disk u, at rest and not held up by its supports (held_up), tips off them: it
    slides away from them on its layer, straight at the board's deceleration, from the speed at
    which it stops just clear of them (a ``tipped`` event; the kinetic energy comes from its fall,
    ``friction * gravity`` times the distance, within the fall of one disk's thickness for a
    partly covered puck); it drops there (on_stop). What rode on it stays where it is. Returns
    the log length."""
    held, ex, ey = held_up(S, L, u, now)
    if held:
        return n_log
    dist = clear_distance(S, L, u, ex, ey, now)
    x, y, _, _ = state_at(S, u, now)
    v = np.sqrt(2.0 * P[P_DECEL] * dist)
    set_motion(S, u, now, x, y, v * ex, v * ey, spin_at(S, u, now, P), P[P_DECEL])
    L[u, HOLD] = TIPPING
    n_log = log_event(T, n_log, now, TIPPED, u, -1, 0, S, L, P)
    retime(S, L, u, now, P, T)
    for k in range(S.shape[0]):
        if L[k, CARRIER] == u and L[k, STATUS] == ON_BOARD:
            L[k, CARRIER] = -1
            if moving(S, k, now):
                stop_at(S, k, now, P)
                n_log = log_event(T, n_log, now, STOPPED, k, -1, 0, S, L, P)
                retime(S, L, k, now, P, T)
    return n_log


@njit(cache=True, inline="always")
def disturbed(S: np.ndarray, L: np.ndarray, u: int, now: float) -> bool:
    """Has stacked disk u or one of its supports had an event in this shot (a reference time
    after 0)? A layout is held up as it was placed until its pile is disturbed."""
    if S[u, T0] > 0.0:
        return True
    for k in range(S.shape[0]):  # noqa: SIM110 (numba compiles no generators)
        if S[k, T0] > 0.0 and is_support(S, L, u, k, now):
            return True
    return False


@njit(cache=True)
def tip_all(S: np.ndarray, L: np.ndarray, now: float, P: np.ndarray, T: Tables, n_log: int) -> int:
    """Every stacked disk of a disturbed pile that rests across others (not riding, not tipping
    nor stuck) and is no longer held up tips off (tip_off). Returns the log length."""
    for u in range(S.shape[0]):
        if (
            L[u, STATUS] == ON_BOARD
            and L[u, LAYER] > 0
            and L[u, CARRIER] < 0
            and (L[u, HOLD] == FREE or L[u, HOLD] == BLOCKED)
            and not moving(S, u, now)
            and disturbed(S, L, u, now)
        ):
            n_log = tip_off(S, L, u, now, P, T, n_log)
    return n_log


@njit(cache=True)
def tip_ended(
    S: np.ndarray, L: np.ndarray, u: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """Tipping disk u has come to rest (stopped, or held by an impact): it drops if clear of its
    supports (settle), else it lies where it is (stuck); the piles are restacked. Returns the log
    length."""
    n_log = drop_unsupported(S, L, u, True, now, P, T, n_log)
    if L[u, HOLD] == TIPPING:
        L[u, HOLD] = STUCK
    return restack(S, L, now, P, T, n_log)


# --- dispatch ------------------------------------------------------------------------------------
@njit(cache=True)
def write_disk(
    EVf: np.ndarray,
    EVi: np.ndarray,
    n: int,
    col: int,
    S: np.ndarray,
    i: int,
    t: float,
    P: np.ndarray,
) -> None:
    """Write disk i's state at t into log row n (float block ``col``)."""
    x, y, vx, vy = state_at(S, i, t)
    EVf[n, col] = x
    EVf[n, col + 1] = y
    EVf[n, col + 2] = vx
    EVf[n, col + 3] = vy
    EVf[n, col + 4] = spin_at(S, i, t, P)
    curved = S[i, CURV] != 0.0
    EVf[n, col + 5] = 0.0 if curved else S[i, DEC]
    EVf[n, col + 6] = S[i, AX]
    EVf[n, col + 7] = S[i, AY]


@njit(cache=True, inline="always")
def write_event(
    T: Tables,
    n: int,
    t: float,
    kind: int,
    i: int,
    j: int,
    aux: int,
    S: np.ndarray,
    L: np.ndarray,
    P: np.ndarray,
) -> None:
    """(Re)write log row n of T: an event with the states of i (and j) just after it."""
    EVf = T[4]
    EVi = T[5]
    if n >= EVf.shape[0]:
        return
    EVf[n, 0] = t
    write_disk(EVf, EVi, n, 1, S, i, t, P)
    EVi[n, 0] = kind
    EVi[n, 1] = i
    EVi[n, 2] = j
    EVi[n, 3] = aux
    EVi[n, 4] = L[i, LAYER]
    EVi[n, 5] = -1
    EVi[n, 6] = 1 if S[i, CURV] != 0.0 else 0
    EVi[n, 7] = 0
    if j >= 0:
        write_disk(EVf, EVi, n, 1 + N_DISK_F, S, j, t, P)
        EVi[n, 5] = L[j, LAYER]
        EVi[n, 7] = 1 if S[j, CURV] != 0.0 else 0
    else:
        for c in range(1 + N_DISK_F, N_EVF):
            EVf[n, c] = 0.0


@njit(cache=True, inline="always")
def log_event(
    T: Tables,
    n: int,
    t: float,
    kind: int,
    i: int,
    j: int,
    aux: int,
    S: np.ndarray,
    L: np.ndarray,
    P: np.ndarray,
) -> int:
    """Append an event with the states of i (and j) just after it to the log of T; returns the
    new log length (rows beyond the log's capacity are counted, not written: the caller sees the
    overflow)."""
    write_event(T, n, t, kind, i, j, aux, S, L, P)
    return n + 1


@njit(cache=True, inline="always")
def remove(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    now: float,
    status: int,
    aux: int,
    order: int,
    P: np.ndarray,
    T: Tables,
) -> None:
    """Take disk i off the surface at time now (into pocket ``aux`` or off the board)."""
    stop_at(S, i, now, P)
    L[i, STATUS] = status
    L[i, POCKET] = aux if status == IN_POCKET else -1
    L[i, ORDER] = order
    L[i, CARRIER] = -1
    L[i, HOLD] = FREE
    S[i, PTIME] = now
    retime(S, L, i, now, P, T)


@njit(cache=True, inline="always")
def leave(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    status: int,
    kind: int,
    aux: int,
    order: int,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
) -> int:
    """Disk i falls into pocket ``aux`` (IN_POCKET, a POCKETED event) or flies off over rail
    ``aux`` (OFF_BOARD, FLEW_OFF), ``order``-th to leave; what it held drops (R6e) and the piles
    are restacked. Returns the log length."""
    remove(S, L, i, now, status, aux, order, P, T)
    n_log = log_event(T, n_log, now, kind, i, -1, aux, S, L, P)
    n_log = drop_unsupported(S, L, i, False, now, P, T, n_log)
    return restack(S, L, now, P, T, n_log)


@njit(cache=True, inline="always")
def on_stop(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """Disk i comes to rest (a ``stopped`` event); its pile's motion is recomputed; a tipping
    disk drops if clear (tip_ended). Returns the log length."""
    rebase(S, i, now, P)
    row = n_log
    n_log = log_event(T, n_log, now, STOPPED, i, -1, 0, S, L, P)
    retime(S, L, i, now, P, T)
    if in_pile(L, i, P):
        n_log = pile_update(S, L, i, now, P, T, n_log, i, -1)
        write_event(T, row, now, STOPPED, i, -1, 0, S, L, P)
    if L[i, HOLD] == TIPPING:
        n_log = tip_ended(S, L, i, now, P, T, n_log)
    return n_log


@njit(cache=True, inline="always")
def on_transition(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """The curved piece of disk i (sliding on its support) ends: its pile's motion is
    recomputed. Returns the log length."""
    n_log = pile_update(S, L, i, now, P, T, n_log, -1, -1)
    if S[i, CURV] != 0.0 and S[i, TSTOP] <= now:
        # guard: a piece that would end again at once rides with its carrier
        c = L[i, CARRIER]
        x, y, _, _ = state_at(S, i, now)
        _, _, vx, vy = state_at(S, c, now)
        set_motion(S, i, now, x, y, vx, vy, spin_at(S, i, now, P), P[P_DECEL])
        n_log = log_event(T, n_log, now, CARRIED, i, -1, 0, S, L, P)
        n_log = pile_update(S, L, i, now, P, T, n_log, -1, -1)
    return n_log


@njit(cache=True, inline="always")
def on_rim(
    S: np.ndarray, L: np.ndarray, i: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """The centre of disk i reaches its carrier's rim: it rides on the disk under it there (a
    ``carried`` event), or stops hanging over the rim (``stopped``; tip_all tips it off once its
    centre is past the hull of its supports); both piles' motions are recomputed. Returns the
    log length."""
    c = L[i, CARRIER]
    rebase(S, i, now, P)
    L[i, CARRIER] = -1
    k = find_carrier(S, L, i, now, c)
    row = n_log
    kind = CARRIED
    if k >= 0:
        L[i, CARRIER] = k
    else:
        stop_at(S, i, now, P)
        kind = STOPPED
    n_log = log_event(T, n_log, now, kind, i, -1, 0, S, L, P)
    retime(S, L, i, now, P, T)
    n_log = pile_update(S, L, c, now, P, T, n_log, i, -1)
    n_log = pile_update(S, L, i, now, P, T, n_log, i, -1)
    write_event(T, row, now, kind, i, -1, 0, S, L, P)
    return n_log


@njit(cache=True, inline="always")
def on_rail(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    side: int,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
) -> int:
    """Disk i, rebased to now, rebounds from rail ``side`` (a ``disk_rail`` event); its pile's
    motion is recomputed. Returns the log length."""
    rail_bounce(S, i, side, now, P)
    row = n_log
    n_log = log_event(T, n_log, now, DISK_RAIL, i, -1, side, S, L, P)
    retime(S, L, i, now, P, T)
    if in_pile(L, i, P):
        n_log = pile_update(S, L, i, now, P, T, n_log, i, -1)
        write_event(T, row, now, DISK_RAIL, i, -1, side, S, L, P)
    return n_log


@njit(cache=True, inline="always")
def on_impact(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    j: int,
    again: bool,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
) -> tuple[int, bool]:
    """Disks i and j of one layer meet (a ``disk_disk`` event): a stacked disk lying across
    others is hit as a fixed body (collide_fixed), else both move (collide; ``again``: their
    previous impact was as slow). Returns the log length and whether the pair moved on as
    one."""
    stacking = P[P_STACK] > 0.0
    held_i = stacking and L[i, LAYER] > 0 and L[i, CARRIER] < 0
    held_j = stacking and L[j, LAYER] > 0 and L[j, CARRIER] < 0
    if held_j and not held_i:
        merged = collide_fixed(S, i, j, now, P)
    elif held_i and not held_j:
        merged = collide_fixed(S, j, i, now, P)
    else:
        merged = collide(S, i, j, now, P, again)
    row = n_log
    n_log = log_event(T, n_log, now, DISK_DISK, i, j, 0, S, L, P)
    retime(S, L, i, now, P, T)
    retime(S, L, j, now, P, T)
    if stacking:
        n_log = impact_on_piles(S, L, i, j, merged, row, now, P, T, n_log)
    return n_log, merged


@njit(cache=True, inline="always")
def impact_on_piles(
    S: np.ndarray,
    L: np.ndarray,
    i: int,
    j: int,
    merged: bool,
    row: int,
    now: float,
    P: np.ndarray,
    T: Tables,
    n_log: int,
) -> int:
    """After the impact of i and j (logged in row ``row``, rewritten here): stacked disks that
    were pressed together, or lie across others, stop where they are; the piles of both and of
    their carriers are recomputed. Returns the log length."""
    ci = L[i, CARRIER]
    cj = L[j, CARRIER]
    if merged and L[i, LAYER] > 0:
        # stacked disks pressed together by their supports stop riding: each lies where it is
        # (blocked) while the piles slide on under them
        for k in (i, j):
            if L[k, CARRIER] >= 0:
                L[k, CARRIER] = -1
                L[k, HOLD] = BLOCKED
    for k in (i, j):
        if L[k, LAYER] > 0 and L[k, CARRIER] < 0:
            # a disk lying across others does not slide: it stays where it is
            stop_at(S, k, now, P)
            retime(S, L, k, now, P, T)
    for k in (i, j, ci, cj):
        if k >= 0 and in_pile(L, k, P):
            n_log = pile_update(S, L, k, now, P, T, n_log, i, j)
    if merged and L[i, LAYER] == 0:
        move_with_pile(S, L, i, j, now, P, T)
    write_event(T, row, now, DISK_DISK, i, j, 0, S, L, P)
    for k in (i, j):
        if L[k, HOLD] == TIPPING and not moving(S, k, now):
            n_log = tip_ended(S, L, k, now, P, T, n_log)
    return n_log


@njit(cache=True, inline="always")
def on_support_exit(
    S: np.ndarray, L: np.ndarray, i: int, j: int, now: float, P: np.ndarray, T: Tables, n_log: int
) -> int:
    """A support slid away from under the upper of i and j: it drops if nothing else holds it
    (R6e), and the piles are restacked. Returns the log length."""
    upper = i if L[i, LAYER] > L[j, LAYER] else j
    set_pair(T[0], i, j, pair_time(S, L, i, j, now, P))
    n_log = drop_unsupported(S, L, upper, True, now, P, T, n_log)
    return restack(S, L, now, P, T, n_log)


@njit(cache=True, inline="always")
def tables(n: int, EVf: np.ndarray, EVi: np.ndarray) -> Tables:
    """The tables of a run of n disks (:data:`Tables`) around the event log EVf/EVi: no event
    known yet."""
    return (
        np.full((n, n), INF),
        np.full(n, INF),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        EVf,
        EVi,
        np.empty(n + 1, dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
        np.zeros((n, N_WF)),
        np.zeros((n, N_WI), dtype=np.int64),
    )


@njit(cache=True, inline="always")
def start(S: np.ndarray, L: np.ndarray, P: np.ndarray, T: Tables) -> int:
    """Set up the shot at time 0: every disk on the board sliding straight from its given state,
    stacked disks riding on the disk under their centre, every event time known, and the piles
    of moving disks in motion. Returns the log length."""
    n = S.shape[0]
    decel = P[P_DECEL]
    stacking = P[P_STACK] > 0.0
    now = 0.0
    for i in range(n):
        set_motion(S, i, 0.0, S[i, X], S[i, Y], S[i, VX], S[i, VY], S[i, W], decel)
        L[i, STATUS] = ON_BOARD
        L[i, POCKET] = -1
        L[i, ORDER] = -1
        L[i, CARRIER] = -1
        L[i, HOLD] = FREE
        S[i, PTIME] = INF
    if stacking:
        for i in range(n):
            L[i, CARRIER] = find_carrier(S, L, i, 0.0, -1)
    OT = T[1]
    OC = T[2]
    OA = T[3]
    for i in range(n):
        if moving(S, i, now):
            retime(S, L, i, now, P, T)  # its own event and every pair with it
        else:
            t, c, a = own_event(S, L, i, now, P)
            OT[i] = t
            OC[i] = c
            OA[i] = a
    n_log = 0
    if stacking:
        for i in range(n):
            if L[i, CARRIER] < 0 and moving(S, i, now) and has_riders(L, i):
                n_log = pile_update(S, L, i, now, P, T, n_log, -1, -1)
    return n_log


@njit(cache=True, inline="always")
def stop_all(S: np.ndarray, L: np.ndarray, now: float, P: np.ndarray, T: Tables, n_log: int) -> int:
    """Every moving disk stops where it stands at now (``stopped`` events: a truncated shot).
    Returns the log length."""
    for i in range(S.shape[0]):
        if L[i, STATUS] == ON_BOARD and moving(S, i, now):
            stop_at(S, i, now, P)
            n_log = log_event(T, n_log, now, STOPPED, i, -1, 0, S, L, P)
    return n_log


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

    S, L: state (modified: the final layout). EVf/EVi: event log (rows beyond capacity are
    counted in OUTi[0] but not written). OUTi: (log length, events handled, truncated, striker's
    first contact index or -1, rails it touched before). OUTf: (first contact time). RB: those
    rails (side codes). On truncation every moving disk stops where it stands at that moment
    (``stopped`` events).
    """
    T = tables(S.shape[0], EVf, EVi)
    OC = T[2]
    OA = T[3]
    n_log = start(S, L, P, T)
    now = 0.0
    n_proc = 0
    order = 0
    fc = -1
    fc_t = INF
    n_rb = 0
    truncated = 0
    last_i = -1
    last_j = -1
    last_t = -1.0
    slow_i = -1  # the pair of the last impact slower than STICK_SPEED that did not merge
    slow_j = -1
    piles = False  # layers never rise: a shot without stacked disks never has any
    if P[P_STACK] > 0.0:
        for i in range(S.shape[0]):
            if L[i, LAYER] > 0:
                piles = True
    while True:
        if piles:
            n_log = tip_all(S, L, now, P, T, n_log)
        best, bi, bj = next_event(T)
        if best == INF:
            break
        if n_proc >= max_events:
            truncated = 1
            break
        n_proc += 1
        if best > now:
            now = best
        if bi == last_i and bj == last_j and now == last_t:
            # the pair merged by the previous event is pressed together again at once (two
            # disks that each carry a pile keep their piles' motion laws, see move_with_pile):
            # it stays in contact until either disk has another event
            set_pair(T[0], bi, bj, INF)
            continue
        last_i = -1
        if bj >= 0:
            if L[bi, LAYER] != L[bj, LAYER]:
                n_log = on_support_exit(S, L, bi, bj, now, P, T, n_log)
                continue
            slow = closing_speed(S, bi, bj, now) < STICK_SPEED
            # the second slow impact of a pair in a row ends the series (inelastic collapse: a
            # disk nudging a resting one, which stops at once, again and again, ever slower)
            again = slow and bi == slow_i and bj == slow_j and P[P_MERGE_ALL] == 0.0
            n_log, merged = on_impact(S, L, bi, bj, again, now, P, T, n_log)
            slow_i = bi if slow and not merged else -1
            slow_j = bj if slow and not merged else -1
            if merged:
                last_i = bi
                last_j = bj
                last_t = now
            if fc < 0 and (bi == striker or bj == striker):
                fc = bj if bi == striker else bi
                fc_t = now
            continue
        code = OC[bi]
        aux = OA[bi]
        if code == OWN_STOP:
            n_log = on_stop(S, L, bi, now, P, T, n_log)
        elif code == OWN_TRANS:
            n_log = on_transition(S, L, bi, now, P, T, n_log)
        elif code == OWN_RIM:
            n_log = on_rim(S, L, bi, now, P, T, n_log)
        elif code == OWN_POCKET:
            n_log = leave(S, L, bi, IN_POCKET, POCKETED, aux, order, now, P, T, n_log)
            order += 1
        else:
            rebase(S, bi, now, P)
            if fly_off and flies_off(S, bi, aux, P, seed, n_proc):
                n_log = leave(S, L, bi, OFF_BOARD, FLEW_OFF, aux, order, now, P, T, n_log)
                order += 1
                continue
            n_log = on_rail(S, L, bi, aux, now, P, T, n_log)
            if bi == striker and fc < 0:
                if n_rb < RB.shape[0]:
                    RB[n_rb] = aux
                n_rb += 1
    if truncated:
        n_log = stop_all(S, L, now, P, T, n_log)
    OUTi[0] = n_log
    OUTi[1] = n_proc
    OUTi[2] = truncated
    OUTi[3] = fc
    OUTi[4] = min(n_rb, RB.shape[0])
    OUTf[0] = fc_t


# --- entry points --------------------------------------------------------------------------------
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
    out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Shot m of a batch: shots[m] = (x, y, vx, vy) of the striker (m, m/s); no event log.

    ``out`` = (XYT, LOUT, OUTi, OUTf, RB) of :func:`run_batch_serial`. Only what a batch reports
    is kept of the final state: XYT[:, m] = (x, y, time out) per disk (m, m, s), LOUT[:, m] =
    (layer, status, pocket, order) per disk."""
    XYT, LOUT, OUTi, OUTf, RB = out
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
        for c in range(N_LOUT):
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
        out = (XYT, LOUT, OUTi, OUTf, RB)
        run_one_of_batch(m, S0, L0, P, striker, shots, seeds, fly_off, max_events, out)


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
    out = (XYT, LOUT, OUTi, OUTf, RB)
    for m in range(shots.shape[0]):
        run_one_of_batch(m, S0, L0, P, striker, shots, seeds, fly_off, max_events, out)


@njit(cache=True)
def board_rows(
    m: int,
    S_t: np.ndarray,
    L_t: np.ndarray,
    striker: int,
    layouts: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The state of board m (see :func:`run_one_board`): (S, L, template index of each row,
    layers, the striker's row)."""
    present, XY0, layer0, shots, _ = layouts
    n_t = S_t.shape[0]
    n = 0
    for k in range(n_t):
        if present[m, k] or k == striker:
            n += 1
    S = np.zeros((n, S_t.shape[1]))
    L = np.zeros((n, L_t.shape[1]), dtype=np.int64)
    index = np.empty(n, dtype=np.int64)
    layers = np.zeros(n)
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
            layers[j] = 0.0
            local_striker = j
        else:
            S[j, X] = XY0[0, m, k]
            S[j, Y] = XY0[1, m, k]
            layers[j] = layer0[m, k]
        index[j] = k
        j += 1
    return S, L, index, layers, local_striker


@njit(cache=True)
def board_out(
    m: int, S: np.ndarray, L: np.ndarray, index: np.ndarray, XYT: np.ndarray, LOUT: np.ndarray
) -> None:
    """Report the final state of board m per template disk (see :func:`run_one_board`)."""
    for jj in range(S.shape[0]):
        k = index[jj]
        XYT[0, m, k] = S[jj, X]
        XYT[1, m, k] = S[jj, Y]
        XYT[2, m, k] = S[jj, PTIME]
        LOUT[0, m, k] = L[jj, LAYER]
        LOUT[1, m, k] = L[jj, STATUS]
        LOUT[2, m, k] = L[jj, POCKET]
        LOUT[3, m, k] = L[jj, ORDER]


@njit(cache=True)
def run_one_board(
    m: int,
    S_t: np.ndarray,
    L_t: np.ndarray,
    P: np.ndarray,
    striker: int,
    layouts: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    fly_off: bool,
    max_events: int,
    out: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> None:
    """Board m of a multi-board batch: the template rows (S_t, L_t, every disk that may appear,
    sorted by id, at rest) of the disks present on board m, placed at XY0[:, m] on layer0[m],
    and the striker (template row ``striker``) at shots[m] = (x, y, vx, vy); no event log.
    ``layouts`` = (present, XY0, layer0, shots, seeds), ``out`` = (XYT, LOUT, OUTi, OUTf, RB,
    ERR) of :func:`run_boards_serial`.

    Outputs per template disk k: XYT[:, m, k] = (x, y, time out), LOUT[:, m, k] = (layer, status,
    pocket, order), status -1 for a disk absent from the board. OUTi/OUTf/RB as in a batch, the
    first contact as a template index. ERR[m] = (code, disk a, disk b) of :func:`validate` when
    the layout is refused (nothing is simulated then)."""
    XYT, LOUT, OUTi, OUTf, RB, ERR = out
    S, L, index, layers, local_striker = board_rows(m, S_t, L_t, striker, layouts)
    for k in range(S_t.shape[0]):
        XYT[0, m, k] = np.nan
        XYT[1, m, k] = np.nan
        XYT[2, m, k] = INF
        LOUT[0, m, k] = -1
        LOUT[1, m, k] = -1
        LOUT[2, m, k] = -1
        LOUT[3, m, k] = -1
    code, a, b = validate(S, L, layers, P)
    if code:
        ERR[m, 0] = code
        ERR[m, 1] = index[a]
        ERR[m, 2] = index[b] if b >= 0 else -1
        return
    EVf = np.empty((0, N_EVF))
    EVi = np.empty((0, N_EVI), dtype=np.int64)
    seed = layouts[4][m]
    run(S, L, P, local_striker, seed, fly_off, max_events, EVf, EVi, OUTi[m], OUTf[m], RB[m])
    board_out(m, S, L, index, XYT, LOUT)
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
        layouts = (present, XY0, layer0, shots, seeds)
        out = (XYT, LOUT, OUTi, OUTf, RB, ERR)
        run_one_board(m, S_t, L_t, P, striker, layouts, fly_off, max_events, out)


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
    layouts = (present, XY0, layer0, shots, seeds)
    out = (XYT, LOUT, OUTi, OUTf, RB, ERR)
    for m in range(shots.shape[0]):
        run_one_board(m, S_t, L_t, P, striker, layouts, fly_off, max_events, out)


@njit(cache=True)
def unpack(rows: np.ndarray, P: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """The state arrays S, L of disks given as rows (x, y, vx, vy, radius, mass, layer) and the
    check of the layout (:func:`validate`): (S, L, code, i, j)."""
    n = rows.shape[0]
    S = np.zeros((n, N_SCOL))
    L = np.zeros((n, N_LCOL), dtype=np.int64)
    for i in range(n):
        S[i, X] = rows[i, 0]
        S[i, Y] = rows[i, 1]
        S[i, VX] = rows[i, 2]
        S[i, VY] = rows[i, 3]
        S[i, RAD] = rows[i, 4]
        S[i, MASS] = rows[i, 5]
    code, a, b = validate(S, L, rows[:, 6], P)
    return S, L, code, a, b


@njit(cache=True)
def validate(
    S: np.ndarray, L: np.ndarray, layers: np.ndarray, P: np.ndarray
) -> tuple[int, int, int]:
    """Check a layout and fill L's layer column from ``layers``: (0, -1, -1) if fine, else
    (code, i, j).

    Codes: 5 a number not finite, 6 radius or mass <= 0, 7 layer negative, 1 outside the rails,
    2 same-layer overlap beyond TOUCH, 3 upper-layer disk without support (or a layer beyond the
    number of disks), 4 upper-layer disk moving.
    """
    n = S.shape[0]
    half = P[P_HALF]
    for i in range(n):
        for c in (X, Y, VX, VY, RAD, MASS):
            if not np.isfinite(S[i, c]):
                return 5, i, -1
        if S[i, RAD] <= 0.0 or S[i, MASS] <= 0.0:
            return 6, i, -1
        if layers[i] < 0.0:
            return 7, i, -1
        if layers[i] >= n:
            return 3, i, -1
        L[i, LAYER] = int(layers[i])
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
