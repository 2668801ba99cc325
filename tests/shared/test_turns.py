"""ui.shared.turns: page runs take turns, one at a time, waiting at most MAX_WAIT_S
(issue #32)."""

from __future__ import annotations

import threading
import time

import pytest

from ui.shared import turns


def test_runs_take_turns_in_order():
    events: list[str] = []
    inside = threading.Event()
    go_on = threading.Event()

    @turns.taking_turns
    def slow() -> None:
        events.append("slow in")
        inside.set()
        go_on.wait(5)
        events.append("slow out")

    @turns.taking_turns
    def quick() -> None:
        events.append("quick")

    first = threading.Thread(target=slow)
    first.start()
    assert inside.wait(5)
    second = threading.Thread(target=quick)
    second.start()
    time.sleep(0.2)
    assert events == ["slow in"]  # waits for its turn
    go_on.set()
    first.join(5)
    second.join(5)
    assert events == ["slow in", "slow out", "quick"]


def test_a_run_waits_at_most_max_wait_then_goes_alongside(monkeypatch):
    monkeypatch.setattr(turns, "MAX_WAIT_S", 0.2)
    release = threading.Event()
    inside = threading.Event()

    @turns.taking_turns
    def stuck() -> None:
        inside.set()
        release.wait(10)

    ran = []

    @turns.taking_turns
    def waiting() -> None:
        ran.append(time.monotonic())

    holder = threading.Thread(target=stuck)
    holder.start()
    assert inside.wait(5)
    start = time.monotonic()
    waiting()  # not its turn: runs alongside after 0.2 s
    assert 0.15 < ran[0] - start < 3
    release.set()
    holder.join(5)
    assert turns._turn.acquire(blocking=False)  # the turn was freed, and only once
    turns._turn.release()


def test_an_exception_ends_the_turn():
    @turns.taking_turns
    def failing() -> None:
        raise RuntimeError("a stop request, say")

    with pytest.raises(RuntimeError):
        failing()
    assert turns._turn.acquire(blocking=False)
    turns._turn.release()


def test_every_page_takes_turns():
    """Each page's render is wrapped (a page without it would run alongside every turn)."""
    import importlib

    from ui.shared import menu

    for entry in menu.PAGES:
        render = importlib.import_module(f"ui.features.{entry.name}.page").render
        assert getattr(render, "__wrapped__", None) is not None, entry.name
        assert render.__code__ is turns.taking_turns(lambda: None).__code__, entry.name


def test_the_turn_goes_to_the_run_that_waited_longest():
    order: list[int] = []
    inside = threading.Event()
    go_on = threading.Event()

    @turns.taking_turns
    def holder() -> None:
        inside.set()
        go_on.wait(5)

    def waiter(n: int):
        @turns.taking_turns
        def run() -> None:
            order.append(n)

        return threading.Thread(target=run)

    first = threading.Thread(target=holder)
    first.start()
    assert inside.wait(5)
    waiting = []
    for n in range(6):
        waiting.append(waiter(n))
        waiting[-1].start()
        time.sleep(0.05)  # they arrive in this order
    go_on.set()
    for thread in [first, *waiting]:
        thread.join(5)
    assert order == list(range(6))
    assert turns._turn.acquire(blocking=False)
    turns._turn.release()


def test_a_run_that_just_arrived_does_not_take_the_turn_from_a_waiting_one():
    """threading.Lock lets a newcomer take a just-released lock before the waiter it woke."""
    turn = turns._turn
    assert turn.acquire(blocking=False)
    got = []
    waiter = threading.Thread(target=lambda: got.append(turn.acquire(timeout=5)))
    waiter.start()
    time.sleep(0.2)  # it waits
    turn.release()
    assert not turn.acquire(blocking=False)  # the newcomer: the turn went to the waiter
    waiter.join(5)
    assert got == [True]
    turn.release()


def test_a_waiter_that_gave_up_leaves_the_queue(monkeypatch):
    turn = turns._Turns()
    assert turn.acquire()
    assert not turn.acquire(timeout=0.05)  # gave up
    assert not turn.acquire(blocking=False)
    turn.release()
    assert turn.acquire(blocking=False)  # nobody left in the queue took it
    turn.release()
    with pytest.raises(RuntimeError):
        turn.release()
