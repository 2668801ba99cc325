"""posenc._threads: one process-wide pool for every blocked computation (issue 25 §1).

Blocked results equal the one-thread results exactly, and the pool never holds more
threads than the bound, however many callers submit at once.
"""

import threading
import time

import numpy as np
import pytest

import posenc
from posenc import _threads
from posenc.frameworks import max_abs_differences


@pytest.fixture
def bound():
    """Set the bound for one test, restore the default after it."""
    yield posenc.set_max_threads
    posenc.set_max_threads(None)


def _one_and_four(bound, compute):
    bound(1)
    single = compute()
    bound(4)
    return single, compute()


def test_the_blocked_table_equals_the_one_thread_table(bound):
    # 4096 x 1024: 2 M pairs, the size at which the table is cut into shares.
    assert 4096 * 512 >= _threads.THREADED_SIZE
    single, shared = _one_and_four(bound, lambda: posenc.sinusoidal(4096, 1024))
    np.testing.assert_array_equal(shared, single)


def test_blocked_shift_residuals_equal_the_one_thread_ones(bound):
    # d = 512: 2048-row slabs, so 8192 rows are four slabs on the pool.
    single, shared = _one_and_four(bound, lambda: posenc.shift_residuals(8192, 512, 3.5))
    np.testing.assert_array_equal(shared, single)
    assert single.max() < 1e-10


def test_blocked_framework_differences_equal_the_one_thread_ones(bound):
    single, shared = _one_and_four(bound, lambda: max_abs_differences(4096, 512))
    assert shared == single
    assert single["t2t"] > 0.1 and single["tf"] == 0.0


def test_the_pool_never_holds_more_threads_than_the_bound(bound):
    bound(3)
    seen = set()

    def work(_):
        seen.add(threading.current_thread().name)
        time.sleep(0.002)

    # Ten sessions at once, each cutting its call into 20 shares.
    callers = [threading.Thread(target=_threads.run, args=(work, range(20))) for _ in range(10)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    pool_threads = [t for t in threading.enumerate() if t.name.startswith("posenc")]
    assert len(seen) <= 3 and len(pool_threads) <= 3
    assert all(name.startswith("posenc") for name in seen)  # none ran in the callers
    assert _threads.shares(100) == 3


def test_a_share_that_asks_for_threads_runs_its_parts_inline(bound):
    # Nested calls never wait on the pool they run in: two workers, eight nested calls.
    bound(2)
    out = _threads.run(lambda i: sum(_threads.run(lambda j: i * j, range(4))), range(8))
    assert out == [6 * i for i in range(8)]
    assert _threads.run(lambda _: _threads.shares(50), range(3)) == [1, 1, 1]


def test_the_bound_comes_from_the_environment_by_default(monkeypatch):
    monkeypatch.setenv("POSENC_MAX_THREADS", "3")
    assert posenc.max_threads() == 3
    monkeypatch.setenv("POSENC_MAX_THREADS", "0")
    with pytest.raises(ValueError, match="POSENC_MAX_THREADS"):
        posenc.max_threads()
    monkeypatch.delenv("POSENC_MAX_THREADS")
    assert 1 <= posenc.max_threads() <= _threads.DEFAULT_CAP


@pytest.mark.parametrize("bad", [0, -1, 1.5, "four", True])
def test_a_bad_bound_names_the_parameter(bad):
    with pytest.raises(ValueError, match="n must be an integer"):
        posenc.set_max_threads(bad)


def test_changing_the_bound_while_others_compute_loses_no_work(bound):
    # Callers keep submitting while the bound changes: every result arrives, none raises.
    results, errors = [], []

    def caller():
        for _ in range(40):
            try:
                results.append(_threads.run(lambda x: x + 1, range(30)))
            except Exception as exc:  # the failure being tested
                errors.append(exc)

    callers = [threading.Thread(target=caller) for _ in range(6)]
    for caller_thread in callers:
        caller_thread.start()
    while any(t.is_alive() for t in callers):
        for n in (2, 3, 4):
            bound(n)
    for caller_thread in callers:
        caller_thread.join()
    assert errors == [] and results == [list(range(1, 31))] * 240
