"""Script runs take turns: one at a time in a process, each waiting at most
:data:`MAX_WAIT_S` for its turn (issue #32).

Every session's rerun is a thread of its own, and Python runs one thread at a time (the
GIL). A room of 200 following the presenter on the Heatmap kept ~25 runs in flight on one
process; all of them progressed together, switching every few milliseconds, so every run
finished late: p95 1.3-2.1 s in ``bench/serve_load.py --page Heatmap --sessions 200``.
Taking turns, each run finishes in one go: p95 0.6-0.8 s on the same machine, same hour,
for the same work (bench/README.md). The turn goes to the run that has waited longest.

A run that is slow (a cold computation, seconds) must not hold the room: a run that has
waited :data:`MAX_WAIT_S` goes ahead alongside it, as all runs did before.
"""

from __future__ import annotations

import collections
import functools
import threading
from collections.abc import Callable

from ui.shared.streamlit_internals import end_run

MAX_WAIT_S = 1.0  # the longest a run waits for its turn before it runs alongside


class _Turns:
    """A lock that hands the turn to the run that has waited longest (first come, first
    served). ``threading.Lock`` wakes any waiter, and a run that just arrived can take
    the turn before all of them: near a full core a few runs waited several times the
    mean, and the p95 is theirs (issue #32). A waiter that gives up (timeout) leaves
    the queue."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._queue: collections.deque[threading.Event] = collections.deque()
        self._held = False

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        with self._guard:
            if not self._held and not self._queue:
                self._held = True
                return True
            if not blocking:
                return False
            mine = threading.Event()
            self._queue.append(mine)
        if mine.wait(None if timeout < 0 else timeout):
            return True  # handed over by release()
        with self._guard:
            if mine.is_set():  # handed over as the wait timed out
                return True
            self._queue.remove(mine)
            return False

    def release(self) -> None:
        with self._guard:
            if not self._held:
                raise RuntimeError("release of a turn nobody holds")
            if self._queue:
                self._queue.popleft().set()  # the turn passes on, still held
            else:
                self._held = False


_turn = _Turns()


def taking_turns(render: Callable[[], None]) -> Callable[[], None]:
    """``render`` (a page's whole run), run in its turn (:data:`MAX_WAIT_S` at most).
    Streamlit's stop and rerun requests are exceptions: they pass, and the turn ends."""

    @functools.wraps(render)
    def run() -> None:
        mine = _turn.acquire(timeout=MAX_WAIT_S)
        try:
            render()
        finally:
            end_run()  # a callback before the next run reads the session, not this run
            if mine:
                _turn.release()

    return run
