"""One process-wide thread policy for posenc's blocked computations (a shared helper).

numpy releases the GIL inside its loops, so a large table or scan is cut into shares
computed on several threads. Every such computation in posenc (the sinusoidal table,
``shift_residuals``, ``scheme_criteria``, ``max_abs_differences``, ``score_block_means``,
``layout_differences``, ``rope_base_sums`` and the base-bound scans) submits its shares to
one pool per process, of at most :func:`max_threads` workers: however many sessions
call at once, posenc never runs more worker threads than that. The default is the
number of cores, capped at 8; the environment variable ``POSENC_MAX_THREADS`` or
:func:`set_max_threads` changes it (1: everything runs in the calling thread).

A share that itself asks for threads (a table built inside a scan's share) runs its
parts in its own thread: no share waits on the pool it runs in, so a full pool cannot
deadlock. Results do not depend on the number of threads: the shares write disjoint
slices, and reductions over shares (max, min) are exact.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from posenc._validate import check_int

__all__ = ["DEFAULT_CAP", "THREADED_SIZE", "max_threads", "run", "set_max_threads", "shares"]

T = TypeVar("T")
R = TypeVar("R")

# Default cap on the pool, whatever the core count.
DEFAULT_CAP = 8
# Computations of fewer float64 entries than this run in the calling thread (below,
# threads cost more than they save).
THREADED_SIZE = 1 << 21

_lock = threading.Lock()
_limit: int | None = None
_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_local = threading.local()


def _default() -> int:
    value = os.environ.get("POSENC_MAX_THREADS", "").strip()
    if value:
        return check_int("POSENC_MAX_THREADS", int(value) if value.isdigit() else value, minimum=1)
    return max(1, min(os.cpu_count() or 1, DEFAULT_CAP))


def max_threads() -> int:
    """Workers of the shared pool: :func:`set_max_threads`' value, else the default.

    Examples
    --------
    >>> max_threads() >= 1
    True
    """
    return _limit if _limit is not None else _default()


def set_max_threads(n: int | None) -> int:
    """Bound the threads posenc uses in this process to ``n`` (None: the default).

    The next blocked computation uses a pool of ``n`` workers; shares already
    submitted finish on the old pool. Returns the bound now in force.

    Examples
    --------
    >>> previous = max_threads()
    >>> set_max_threads(1)
    1
    >>> set_max_threads(None) == previous
    True
    """
    global _limit, _pool
    n = None if n is None else check_int("n", n, minimum=1, maximum=256)
    with _lock:
        _limit, old, _pool = n, _pool, None
    if old is not None:
        old.shutdown(wait=False)
    return max_threads()


def _in_pool() -> bool:
    return getattr(_local, "in_pool", False)


def shares(parts: int) -> int:
    """How many shares to cut ``parts`` units of work into: 1 inside a pool thread.

    Examples
    --------
    >>> 1 <= shares(100) <= max_threads()
    True
    >>> shares(1)
    1
    """
    if _in_pool():
        return 1
    return max(1, min(max_threads(), int(parts)))


def _submit_all(fn, items) -> list:
    """Submit every item under the lock, so :func:`set_max_threads` cannot shut the pool
    between two submits (work already queued on an old pool still runs)."""
    global _pool, _pool_size
    with _lock:
        if _pool is None:
            _pool_size = max_threads()
            _pool = ThreadPoolExecutor(_pool_size, thread_name_prefix="posenc")
        return [_pool.submit(_call_in_pool, fn, item) for item in items]


def _call_in_pool(fn: Callable[[T], R], item: T) -> R:
    _local.in_pool = True
    try:
        return fn(item)
    finally:
        _local.in_pool = False


def run(fn: Callable[[T], R], items: Iterable[T], *, size: int | None = None) -> list[R]:
    """``[fn(item) for item in items]``, the items on the shared pool when it pays.

    In the calling thread when there is one item, when the bound is 1, inside a pool
    thread (no nested waits), or when ``size`` (entries of the whole computation) is
    below ``THREADED_SIZE``. Order of the results = order of the items.

    Examples
    --------
    >>> run(lambda x: x * x, range(5))
    [0, 1, 4, 9, 16]
    """
    items = list(items)
    small = size is not None and size < THREADED_SIZE
    if len(items) <= 1 or small or _in_pool() or max_threads() == 1:
        return [fn(item) for item in items]
    return [future.result() for future in _submit_all(fn, items)]
