"""The base a context needs (Men et al. 2024, "Base of RoPE Bounds Context Length",
arXiv 2405.14591): the smallest base whose RoPE still tells similar tokens apart at every
distance of the context.

Symbols as in the package glossary (m an offset, d = head_dim, b the base, L the context),
and:

=========  ===================================================================
``B(m)``   ``sum_{i=0}^{d/2-1} cos(m b^(-2i/d))``: how much more a query attends to a
           key that equals it than to a random key, ``m`` positions away (the paper's
           ``B_{m,theta}``, up to a positive factor)
``S_L``    the safe bases ``{b >= 1 : B(m) >= 0 for every integer 0 <= m <= L}``
``b*(L)``  the paper's bound ``inf S_L``, the smallest safe base: ``S_L`` is closed, so
           ``b*(L)`` is in it
=========  ===================================================================

``S_L`` is not an interval: just above ``b*(L)`` some bases fail again (up to the last
failing base, which is larger), so a bisection that assumes monotonicity gives wrong
answers. What is monotone is ``b*(L)`` itself: ``S_L`` only loses bases as ``L`` grows,
so ``b*(L)`` never decreases, a step function of ``L``.

How it is computed (exactly, for the definition above, evaluated in float64):

1. ``B(m)`` for all ``m`` at once: ``B(m0 + k) = Re sum_i e^{i m0 theta_i} e^{i k theta_i}``
   is a matrix product of a ``(L/K, d)`` and a ``(d, K)`` matrix of cosines and sines
   (``K ~ sqrt(L)``, at most 1024), cut into row blocks on the shared thread pool (BLAS
   itself on one thread, as the app sets it); the few sums within
   ``1e-8`` of zero are recomputed term by term (``cos(m theta_i)`` summed).
2. A covering sweep in ``x = ln b`` from a base known to be at most ``b*(L)``: at an
   unsafe ``x``, each failing ``m`` stays failing up to the first root of
   ``x -> B(m; e^x)`` above ``x``, found by steps that cannot jump over it (a Taylor
   bound with ``|d^2 B/dx^2| <= sum_i a_i^2 phi_i (1 + phi_i)``, ``a_i = 2i/d``,
   ``phi_i = m theta_i``, which only shrinks as ``x`` grows); the sweep jumps to the
   furthest such root among the failing ``m`` and scans again. Every base it passes is
   certified unsafe by one ``m``; the first base where the scan finds no failing ``m``
   is ``b*(L)``.
3. The step function ``b*(L)`` is shipped for head_dim 64, 80, 96, 128 and 256 up to
   ``L = 2**20`` and for 32 up to ``2**16`` (``TABLE_PLAN``) in
   ``posenc/data/rope_base_bounds.json``, made by the same sweep (:func:`rope_base_bounds`;
   regenerate with ``python -m posenc.rope_base``, 1 to 25 minutes per head dim): a
   call there is a lookup, then one scan that checks the base. Other head dims, or
   longer contexts, sweep from the largest stored bound below (``b*`` is monotone in
   L), else from ``b = 1``.

A search on a grid of bases (as the paper's table) returns the first safe grid point: never
below ``b*(L)``, and above it wherever the grid steps over the lowest safe fragment
(b*(2**17) = 4.87e6 and b*(2**20) = 6.54e7 at d = 128).
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from posenc import _threads
from posenc._validate import check_even, check_int, check_real

__all__ = [
    "MAX_CONTEXT",
    "rope_base_bounds",
    "rope_base_failure",
    "rope_base_lower_bound",
    "rope_base_sums",
]

# Contexts up to this length are checked (B(m) for m <= context).
MAX_CONTEXT = 1 << 22
# rope_base_lower_bound and rope_base_bounds accept contexts up to this length.
MAX_BOUND_CONTEXT = 1 << 20
MAX_HEAD_DIM = 1024
TABLE = Path(__file__).resolve().parent / "data" / "rope_base_bounds.json"
# Longest block of the matrix product (m = m0 + k, 0 <= k < K <= BLOCK).
BLOCK = 1024
# |B(m)| below this is recomputed term by term (the product is off by ~1e-10 at most).
RECHECK = 1e-8


def _check_head_dim(head_dim) -> int:
    return check_even("head_dim", head_dim, minimum=4, maximum=MAX_HEAD_DIM)


def _check_context(context, maximum: int = MAX_CONTEXT, name: str = "context") -> int:
    return check_int(name, context, minimum=1, maximum=maximum)


def _exponents(head_dim: int) -> np.ndarray:
    """``a_i = 2i/d``: ``theta_i = b ** -a_i = e^(-a_i x)``."""
    return np.arange(0, head_dim, 2, dtype=np.float64) / head_dim


def _rotors(theta: np.ndarray, count: int, step: int) -> np.ndarray:
    """``e^(i k step theta_j)`` for ``k < count``, shape (count, d/2), from sqrt(count) + ...
    exponentials per pair (two levels of products instead of count x d/2 sines)."""
    root = max(1, math.isqrt(max(count - 1, 0)) + 1)
    low = np.exp(1j * np.multiply.outer(np.arange(root, dtype=np.float64) * step, theta))
    high = np.exp(1j * np.multiply.outer(np.arange(0, count, root, dtype=np.float64) * step, theta))
    return (high[:, None, :] * low[None, :, :]).reshape(-1, theta.size)[:count]


def _direct(theta: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The definition term by term: ``sum_i cos(m theta_i)`` for every m of ``offsets``."""
    return np.cos(np.multiply.outer(offsets.astype(np.float64), theta)).sum(axis=-1)


def _block(count: int) -> int:
    """Block length K ~ sqrt(count) (a power of two in 64 .. BLOCK): both factors small."""
    return int(min(BLOCK, max(64, 1 << max(0, (count - 1).bit_length() + 1) // 2)))


def _share(theta: np.ndarray, start: int, stop: int, kernel: np.ndarray) -> np.ndarray:
    """B(m) for start <= m < stop: rows e^(i m0 theta) (m0 = start, start + K, ...) times
    the kernel of e^(i k theta), k < K, as one real product."""
    block = kernel.shape[1]
    heads = _rotors(theta, -(-(stop - start) // block), block) * np.exp(1j * start * theta)
    values = (np.concatenate([heads.real, heads.imag], axis=1) @ kernel).ravel()
    values = values[: stop - start]
    near = np.flatnonzero(np.abs(values) < RECHECK)
    if near.size:
        values[near] = _direct(theta, near + start)
    return values


def _sums(theta: np.ndarray, start: int, stop: int) -> np.ndarray:
    """B(m) for start <= m < stop, in shares of whole blocks over the thread pool."""
    n = stop - start
    block = _block(n)
    tail = _rotors(theta, block, 1)
    kernel = np.concatenate([tail.real, -tail.imag], axis=1).T  # (d, K)
    parts = _threads.shares(-(-n // (1 << 16)))
    edges = sorted({start + (n * p // parts) // block * block for p in range(parts)} | {stop})
    pieces = _threads.run(
        lambda bounds: _share(theta, bounds[0], bounds[1], kernel),
        list(itertools.pairwise(edges)),
        size=n * theta.size,
    )
    return np.concatenate(pieces) if len(pieces) > 1 else pieces[0]


def _first_negative(theta: np.ndarray, start: int, stop: int) -> int | None:
    """Smallest m in [start, stop) with B(m) < 0, scanning windows that double."""
    window = 1 << 15
    while start < stop:
        end = min(stop, start + window)
        bad = np.flatnonzero(_sums(theta, start, end) < 0)
        if bad.size:
            return int(bad[0]) + start
        start, window = end, window * 2
    return None


def rope_base_sums(base: float, context: int, head_dim: int) -> np.ndarray:
    """``B(m) = sum_{i=0}^{d/2-1} cos(m b^(-2i/d))`` for every offset ``0 <= m <= L``.

    Men et al.'s long-term decay of the ability to tell a similar token from a random
    one: ``B(m) >= 0`` for every ``m <= L`` is their condition on the base ``b`` for a
    context ``L``.

    Parameters
    ----------
    base : float
        ``b``: finite, >= 1.
    context : int
        ``L``: 1 .. ``MAX_CONTEXT`` (2**22).
    head_dim : int
        ``d``, the rotated dimensions: even, 4 .. 1024.

    Returns
    -------
    ndarray, shape (context + 1,), float64
        ``B(0) = d/2``. Formed as a blocked matrix product (module docstring), equal to
        the sum of cosines to ~1e-10; values within 1e-8 of zero are that sum itself.

    Examples
    --------
    >>> rope_base_sums(10000.0, 3, 4).round(4)
    array([2.    , 1.5403, 0.5837, 0.0096])
    """
    base = check_real("base", base, at_least=1.0)
    context = _check_context(context)
    head_dim = _check_head_dim(head_dim)
    return _sums(base ** -_exponents(head_dim), 0, context + 1)


def rope_base_failure(base: float, context: int, head_dim: int) -> int | None:
    """The first offset ``m <= L`` where ``B(m) < 0`` (:func:`rope_base_sums`), or None.

    None means the base ``b`` meets Men et al.'s condition for the context ``L``. Scans
    windows of offsets that double in length and stops at the first failing one.

    Parameters
    ----------
    base, context, head_dim
        As in :func:`rope_base_sums`.

    Returns
    -------
    int or None

    Examples
    --------
    Llama 2's base 10000 with head_dim 128 fails inside its 4096 context:

    >>> rope_base_failure(10000.0, 4096, 128)
    1707
    >>> rope_base_failure(10000.0, 1706, 128) is None
    True
    """
    base = check_real("base", base, at_least=1.0)
    context = _check_context(context)
    head_dim = _check_head_dim(head_dim)
    return _first_negative(base ** -_exponents(head_dim), 0, context + 1)


def _reach(offsets: np.ndarray, x: float, a: np.ndarray, steps: int = 80) -> np.ndarray:
    """For each m (with B(m; e^x) < 0), a point up to which B(m; e^y) < 0 for all y in
    [x, point): the first root above x, approached by steps that cannot pass it."""
    y = np.full(offsets.size, x)
    m = offsets.astype(np.float64)[:, None]
    active = np.arange(offsets.size)
    for _ in range(steps):
        if not active.size:
            break
        phi = m[active] * np.exp(-a * y[active, None])
        value = np.cos(phi).sum(axis=1)
        slope = (a * phi * np.sin(phi)).sum(axis=1)
        curve = (a * a * phi * (1.0 + phi)).sum(axis=1)  # >= |B''| from here on
        going = value < 0
        # Smallest h > 0 with value + slope h + curve h^2 / 2 = 0: below it B < 0.
        h = (np.sqrt(slope * slope - 2.0 * curve * value) - slope) / curve
        y[active[going]] += h[going]
        active = active[going]
    return y


def _sweep(context: int, head_dim: int, x: float, failing=None, picks: int = 48) -> float:
    """``ln b*(L)``, sweeping up from ``x <= ln b*(L)`` (module docstring, step 2).

    ``failing``: offsets known to fail at ``x``. The offsets that failed at the last full
    scan are tried first at each new ``x`` (a few thousand cosines instead of a scan of
    ``L``); the full scan runs when none of them fails, and ends the sweep when no
    offset fails.
    """
    a = _exponents(head_dim)
    pool = np.zeros(0, dtype=np.int64) if failing is None else np.asarray(failing, np.int64)
    while True:
        theta = math.exp(x) ** -a  # as rope_base_failure forms it for the base returned
        values = _direct(theta, pool) if pool.size else np.zeros(0)
        bad, depth = pool[values < 0], values[values < 0]
        if not bad.size:
            values = _sums(theta, 0, context + 1)
            bad = np.flatnonzero(values < 0)
            if not bad.size:
                return x
            depth = values[bad]
            pool = bad[np.argsort(depth / np.maximum(bad, 1))[: 64 * picks]]
        # Candidates: deepest per unit of sensitivity (~m), deepest, and smallest m.
        chosen = np.concatenate(
            [bad[np.argsort(depth / bad)[:picks]], bad[np.argsort(depth)[:picks]], bad[:picks]]
        )
        reach = float(_reach(np.unique(chosen), x, a).max())
        x = max(reach, x + 4 * math.ulp(x) + 1e-300)


def _load_table() -> dict[int, tuple[list[int], list[float], int]]:
    """head_dim -> (contexts, bases, max_context) of the shipped step functions."""
    if not TABLE.exists():
        return {}
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return {
        int(d): (entry["contexts"], entry["bases"], int(entry["max_context"]))
        for d, entry in data["head_dims"].items()
    }


@lru_cache(maxsize=1)
def _table() -> dict[int, tuple[list[int], list[float], int]]:
    return _load_table()


def _stored(context: int, head_dim: int) -> tuple[float, bool] | None:
    """``(b*(L0), exact)``: the stored bound at the largest breakpoint ``L0 <= context``,
    and whether it is ``b*(context)`` itself (context within the stored range)."""
    entry = _table().get(head_dim)
    if entry is None:
        return None
    contexts, bases, max_context = entry
    index = bisect.bisect_right(contexts, context) - 1
    return bases[index], context <= max_context


def _breakpoints(max_context: int, head_dim: int, start: tuple[int, float]):
    """The breakpoints of ``L -> b*(L)`` from ``start = (L0, b*(L0))`` to ``max_context``."""
    a = _exponents(head_dim)
    context, base = start
    contexts, bases = [context], [base]
    x = math.log(base)
    while context < max_context:
        failing = _first_negative(math.exp(x) ** -a, context + 1, max_context + 1)
        if failing is None:
            break
        x = _sweep(failing, head_dim, x, failing=[failing])
        context = failing
        contexts.append(context)
        bases.append(math.exp(x))
    return contexts, bases


def rope_base_bounds(max_context: int, head_dim: int) -> tuple[np.ndarray, np.ndarray]:
    """The step function ``L -> b*(L)`` (:func:`rope_base_lower_bound`) up to ``max_context``.

    ``b*(L) = bases[k]`` for ``contexts[k] <= L < contexts[k + 1]`` (the last step
    reaches ``max_context``): ``contexts[k]`` is the first offset that fails at
    ``bases[k - 1]``. Built from ``L = 1`` (``b* = 1``): scan the offsets above the
    current step at its base; at the first failing one, sweep up to the new bound.

    Parameters
    ----------
    max_context : int
        1 .. 2**20.
    head_dim : int
        Even, 4 .. 1024.

    Returns
    -------
    contexts : ndarray of int64, increasing, ``contexts[0] == 1``
    bases : ndarray of float64, increasing

    Examples
    --------
    >>> contexts, bases = rope_base_bounds(64, 8)
    >>> contexts.tolist()
    [1, 2, 3, 4, 7, 8, 9, 10, 16, 22]
    >>> bases.round(1).tolist()
    [1.0, 2.0, 7.4, 11.8, 12.3, 38.3, 158.2, 193.8, 1130.3, 3888.3]

    so ``b*(L) = 3888.3`` for every ``22 <= L <= 64`` at ``d = 8``.
    """
    max_context = _check_context(max_context, MAX_BOUND_CONTEXT, "max_context")
    head_dim = _check_head_dim(head_dim)
    stored = _table().get(head_dim)
    if stored is None:
        contexts, bases = _breakpoints(max_context, head_dim, (1, 1.0))
    elif max_context <= stored[2]:
        contexts, bases = stored[0], stored[1]
    else:
        more = _breakpoints(max_context, head_dim, (stored[0][-1], stored[1][-1]))
        contexts, bases = stored[0][:-1] + more[0], stored[1][:-1] + more[1]
    keep = [k for k, c in enumerate(contexts) if c <= max_context]
    return (
        np.array([contexts[k] for k in keep], dtype=np.int64),
        np.array([bases[k] for k in keep], dtype=np.float64),
    )


@lru_cache(maxsize=256)
def _lower_bound(context: int, head_dim: int) -> float:
    stored = _stored(context, head_dim)
    if stored is not None and stored[1]:
        base = stored[0]
    else:
        start = 1.0 if stored is None else stored[0]  # b*(L0) <= b*(L) for L0 <= L
        base = math.exp(_sweep(context, head_dim, math.log(start)))
    if rope_base_failure(base, context, head_dim) is not None:  # pragma: no cover
        raise RuntimeError(f"the bound {base!r} fails for context {context}: stale table?")
    return base


def rope_base_lower_bound(context: int, head_dim: int) -> float:
    """Men et al.'s lower bound of the RoPE base for a context: the smallest ``b >= 1`` with
    ``B(m) = sum_{i=0}^{d/2-1} cos(m b^(-2i/d)) >= 0`` for every integer ``0 <= m <= L``.

    .. math::

        b^*(L) = \\inf \\{ b \\ge 1 : B_b(m) \\ge 0 \\;\\forall m \\in \\{0, \\dots, L\\} \\}

    the paper's definition; the set is closed, so ``b*`` itself is safe, and every base
    below it fails at some ``m <= L``. Bases above it are not all safe (the safe set is not
    an interval): check a given base with :func:`rope_base_failure`.

    Exact for the definition up to float64 (bases more than 1e-9 below it fail; where
    ``B(m)`` only touches zero, rounding decides its sign within ~1e-8 of the root), found by a
    certified sweep, not a fitted formula (module docstring). Fast for a slider: for
    head_dim 64, 80, 96, 128 and 256 up to L = 2**20 (32 up to 2**16) the step function
    ``b*(L)`` is stored, so a call is a lookup plus one scan of ``B(m)`` for ``m <= L``
    that checks the base (a matrix product in row blocks on the shared thread pool:
    0.07 to 0.3 s at L = 2**20, d = 128, with BLAS on one thread, on a loaded 2-core
    machine); results are cached. Other head dims sweep from ``b = 1`` (about 1 s at
    L = 4096, 30 s at 2**17).

    Parameters
    ----------
    context : int
        ``L``: 1 .. 2**20 (``b*(1) = 1``: one position apart never fails). The offsets
        checked are ``0 .. L``, as in the paper.
    head_dim : int
        ``d``, the rotated dimensions (``int(head_dim * partial_rotary_factor)``): even,
        4 .. 1024.

    Returns
    -------
    float

    Examples
    --------
    Llama 2 (base 10000, head_dim 128) sits below the bound for its 4096 context:

    >>> round(rope_base_lower_bound(4096, 128))
    26952
    >>> b = rope_base_lower_bound(300, 16)
    >>> rope_base_failure(b, 300, 16) is None, rope_base_failure(b * (1 - 1e-9), 300, 16)
    (True, 299)
    """
    context = _check_context(context, MAX_BOUND_CONTEXT)
    head_dim = _check_head_dim(head_dim)
    return _lower_bound(context, head_dim)


# What posenc/data/rope_base_bounds.json holds: head_dim -> largest context. Small rotary
# dims step far more often (25 052 steps to 2**20 at d = 32), so they stop earlier.
TABLE_PLAN = {32: 1 << 16, 64: 1 << 20, 80: 1 << 20, 96: 1 << 20, 128: 1 << 20, 256: 1 << 20}


def _write_table(plan: dict[int, int] = TABLE_PLAN) -> None:
    """Regenerate ``posenc/data/rope_base_bounds.json`` (5 to 25 minutes per head dim)."""
    import time

    data = {
        "what": "b*(L) = bases[k] for contexts[k] <= L < contexts[k + 1], L <= max_context "
        "(posenc.rope_base_lower_bound); made by python -m posenc.rope_base",
        "head_dims": {},
    }
    for head_dim, max_context in plan.items():
        started = time.perf_counter()
        contexts, bases = _breakpoints(max_context, head_dim, (1, 1.0))
        data["head_dims"][str(head_dim)] = {
            "max_context": max_context,
            "seconds": round(time.perf_counter() - started, 1),
            "contexts": contexts,
            "bases": bases,
        }
        print(head_dim, len(contexts), data["head_dims"][str(head_dim)]["seconds"], flush=True)
        TABLE.write_text(json.dumps(data, indent=0), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    _write_table()
