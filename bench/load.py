"""Load test: concurrent real browser sessions changing controls (issue #7).

``python bench/load.py [--sessions 20] [--duration 60] [--baseline 10]``

Starts its own server on 127.0.0.1 (the only address it talks to) and one headless
Chromium. Phase 1, the baseline: a single session on each page in turn for
``--baseline`` seconds. Phase 2, the load: ``--sessions`` sessions (browser contexts,
spread round-robin over the pages of ``ui.shared.menu.PAGES``), all changing controls at the
same time for ``--duration`` seconds. Every loop is bounded in time and count, and the
script stops by itself.

Why a real browser rather than websocket clients speaking Streamlit's protocol: the
client side of the protocol (BackMsg, widget ids and states, page hashes, XSRF) is
internal and changes between releases, and the things to catch are browser things:
console errors, uncaught script errors, the real widget -> URL -> rerun path. The
cost: 20 renderers draw their charts on the same 2 cores as the server.

Sessions open at most 4 at a time (opening times are reported); the clock starts
when all are open. A session's step: press an arrow key on one of the page's sliders
(they take turns; right, then left, away from a bound, so values stay near the
defaults) and wait for the ``script_finished`` ForwardMsg of the rerun on the page's
websocket (frames are read as the browser receives them, so a busy renderer does not
delay the measurement; the page's "running" state is not used: React may batch it
away). Rerun latency = key press to that frame. Then a pause of ``--think`` seconds
(jittered). Errors: an exception element in a delta or on screen at the end, console
errors (except the known 404 probes of ``/<page>/_stcore/health|host-config``),
uncaught page errors, a closed websocket, a crashed page, a page that does not open
within ``--open-timeout``, a rerun that does not finish within ``--step-timeout``.

Prints a markdown table for the README; exit status 1 on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import start_server, stop_server  # noqa: E402
from ui.shared import menu  # noqa: E402

# Edits to the working tree during a run must not reload modules under the sessions;
# an exception on screen should say what it is (the public config redacts it).
SERVER_ENV = {
    "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
    "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS": "full",
}
OPEN_AT_ONCE = 4
MAX_STEPS = 5000  # per session and phase, on top of the time limit
SUBPATH_PROBE = re.compile(r"^https?://[^/]+/[^/]+/_stcore/(health|host-config)$")
# Frames up to this size are parsed (script_finished is a few bytes, an exception a few
# KB); larger ones are chart payloads and are only counted.
PARSE_LIMIT = 64 * 1024
FINISHED = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR,
}
APP_IDLE = (
    "() => document.querySelector('[data-testid=stApp]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    opening: list[float] = field(default_factory=list)  # s from navigation to first idle

    def add(self, page: str, ms: float) -> None:
        self.latencies.setdefault(page, []).append(ms)


class Session:
    """One visitor in its own browser context: opens a page, then moves its sliders."""

    def __init__(self, browser, base: str, page_name: str, tally: Tally, args, seed: int):
        self.browser, self.base, self.name = browser, base, page_name
        self.tally, self.args, self.rng = tally, args, random.Random(seed)
        self.tag = f"[{page_name} #{seed}]"
        self.timeout_ms = args.step_timeout * 1000
        self.closing = False
        self.context = self.page = None
        self.finished: list[float] = []  # time.monotonic() of each finished script run
        self.changed = asyncio.Event()

    def error(self, text: str) -> None:
        self.tally.errors.append(f"{self.tag} {text}"[:400])

    def _on_console(self, message) -> None:
        if message.type == "error" and not SUBPATH_PROBE.match(message.location.get("url", "")):
            self.error(f"console: {message.text}")

    def _on_websocket(self, ws) -> None:
        ws.on("close", lambda _: self.closing or self.error("websocket closed"))
        ws.on("framereceived", self._on_frame)

    def _on_frame(self, payload) -> None:
        """Streamlit's ForwardMsg frames: note finished runs and exceptions."""
        if not isinstance(payload, bytes) or len(payload) > PARSE_LIMIT:
            return
        try:
            msg = ForwardMsg.FromString(payload)
        except Exception:
            return
        kind = msg.WhichOneof("type")
        if kind == "script_finished" and msg.script_finished in FINISHED:
            self.finished.append(time.monotonic())
            self.changed.set()
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "exception":
                exception = element.exception
                where = " | ".join(line.strip() for line in exception.stack_trace[-2:])
                self.error(f"exception: {exception.type}: {exception.message[:160]} at {where}")

    async def open(self) -> bool:
        self.context = await self.browser.new_context(viewport={"width": 1280, "height": 900})
        page = self.page = await self.context.new_page()
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.error(f"page error: {error}"))
        page.on("crash", lambda _: self.error("page crashed"))
        page.on("websocket", self._on_websocket)
        timeout_ms = self.args.open_timeout * 1000
        started = time.monotonic()
        try:
            await page.goto(self.base + menu_url(self.name), timeout=timeout_ms)
            await page.wait_for_function(APP_IDLE, timeout=timeout_ms)
            await page.get_by_role("slider").first.wait_for(timeout=timeout_ms)
            self.tally.opening.append(time.monotonic() - started)
            return True
        except Exception as error:
            self.error(f"opening: {type(error).__name__}: {(str(error) + ' ').splitlines()[0]}")
            return False

    async def finished_after(self, t0: float) -> float:
        """Seconds from ``t0`` to the first finished run after it; TimeoutError if none."""
        deadline = t0 + self.args.step_timeout
        while True:
            later = [t for t in self.finished if t > t0]
            if later:
                return later[0] - t0
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no finished run within {self.args.step_timeout:g} s")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                pass

    async def drive(self, deadline: float) -> None:
        """Move slider after slider until the deadline (or MAX_STEPS)."""
        page = self.page
        sliders = page.get_by_role("slider")
        count = await sliders.count()
        step, ended = 0, "step limit"
        try:
            for step in range(MAX_STEPS):
                if time.monotonic() >= deadline:
                    ended = "deadline"
                    break
                slider = sliders.nth(step % count)
                value, low, high = await slider.evaluate(
                    "e => [+e.value, +e.min, +e.max]", timeout=self.timeout_ms
                )
                right = (step // count) % 2 == 0
                if value >= high or value <= low:
                    right = value <= low
                t0 = time.monotonic()
                await slider.press("ArrowRight" if right else "ArrowLeft", timeout=self.timeout_ms)
                self.tally.add(self.name, 1000 * await self.finished_after(t0))
                await asyncio.sleep(self.args.think * self.rng.uniform(0.5, 1.5))
            shown = page.locator("[data-testid=stException]")
            if await shown.count():
                self.error("exception on screen at the end")
        except Exception as error:  # a timeout or a closed page: count it, stop this session
            ended = f"{type(error).__name__}"
            first_line = (str(error) + " ").splitlines()[0]
            self.error(f"step {step}: {type(error).__name__}: {first_line} {self.trace()}")
        if self.args.verbose:
            print(f"  {self.tag}: {count} sliders, ended at step {step} ({ended})", flush=True)

    def trace(self) -> str:
        """When the last runs finished, to tell a slow server from a lost input."""
        now = time.monotonic()
        ago = ", ".join(f"{now - t:.1f} s" for t in self.finished[-3:])
        return f"(last finished runs: {ago or 'none'} ago; {len(self.finished)} in all)"

    async def close(self) -> None:
        self.closing = True
        if self.context is not None:
            await self.context.close()


async def phase(browser, base: str, names: list[str], seconds: float, tally: Tally, args, seed=0):
    """Open every session first, then let them all move sliders for ``seconds``."""
    sessions = [Session(browser, base, name, tally, args, seed + i) for i, name in enumerate(names)]
    try:
        gate = asyncio.Semaphore(OPEN_AT_ONCE)  # visitors arrive a few at a time

        async def open_one(session: Session) -> bool:
            async with gate:
                return await session.open()

        opened = await asyncio.gather(*(open_one(s) for s in sessions))
        deadline = time.monotonic() + seconds
        limit = seconds + args.step_timeout + 60
        ready = [s for s, ok in zip(sessions, opened, strict=True) if ok]
        await asyncio.wait_for(asyncio.gather(*(s.drive(deadline) for s in ready)), limit)
    finally:
        await asyncio.gather(*(s.close() for s in sessions))


def menu_url(page_name: str) -> str:
    return next(p.url_path for p in menu.PAGES if p.name == page_name)


def percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


async def run(args) -> tuple[Tally, Tally, list[str]]:
    names = [p.name for p in menu.PAGES]
    server = start_server(extra_env=SERVER_ENV)
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            warm = Tally()  # a first visit of each page fills the server's caches
            await phase(browser, server.url, names, 2, warm, args)
            single = Tally()
            for name in names:
                print(f"baseline: one session on {name} for {args.baseline:g} s", flush=True)
                await phase(browser, server.url, [name], args.baseline, single, args)
            print(f"load: {args.sessions} sessions for {args.duration:g} s", flush=True)
            loaded = Tally()
            spread = [names[i % len(names)] for i in range(args.sessions)]
            await phase(browser, server.url, spread, args.duration, loaded, args, seed=1)
            await browser.close()
            return single, loaded, warm.errors
    finally:
        stop_server(server)


def row(label: str, single: list[float], loaded: list[float]) -> str:
    def stats(values):
        if not values:
            return "", "", "0"
        return f"{percentile(values, 50):.0f}", f"{percentile(values, 95):.0f}", str(len(values))

    s50, s95, sn = stats(single)
    l50, l95, ln = stats(loaded)
    ratio50 = f"{float(l50) / float(s50):.1f}x" if s50 and l50 else ""
    ratio95 = f"{float(l95) / float(s95):.1f}x" if s95 and l95 else ""
    return f"| {label} | {sn} | {s50} | {s95} | {ln} | {l50} | {l95} | {ratio50} | {ratio95} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--baseline", type=float, default=10.0, help="seconds per page alone")
    parser.add_argument("--think", type=float, default=0.5, help="mean pause between steps (s)")
    parser.add_argument("--step-timeout", type=float, default=60.0, help="seconds per rerun")
    parser.add_argument("--open-timeout", type=float, default=240.0, help="seconds to open")
    parser.add_argument("--verbose", action="store_true", help="one line per session")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install -y chromium")
        return 1
    if not menu.PAGES:
        print("no pages")
        return 1

    started = time.monotonic()
    single, loaded, warm_errors = asyncio.run(run(args))
    elapsed = time.monotonic() - started
    errors = warm_errors + single.errors + loaded.errors

    print()
    print(
        f"Load test: {args.sessions} concurrent Chromium sessions for {args.duration:g} s "
        f"(pause {args.think:g} s between steps) vs one session alone, same run, "
        "server and browser on the same 2 cores. Rerun latency (ms) = slider key press to "
        "the rerun's script_finished message at the browser."
    )
    print()
    print(
        "| page | reruns alone | p50 alone | p95 alone | reruns under load | "
        "p50 under load | p95 under load | p50 ratio | p95 ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    names = [p.name for p in menu.PAGES]
    for name in names:
        print(row(name, single.latencies.get(name, []), loaded.latencies.get(name, [])))
    all_single = [ms for name in names for ms in single.latencies.get(name, [])]
    all_loaded = [ms for name in names for ms in loaded.latencies.get(name, [])]
    print(row("**all**", all_single, all_loaded))
    print()
    for label, tally in (("alone", single), ("under load", loaded)):
        if tally.opening:
            times = sorted(tally.opening)
            print(
                f"Opening a page ({label}, navigation to first finished run): median "
                f"{statistics.median(times):.1f} s, max {times[-1]:.1f} s."
            )
    print()
    print(f"Errors: {len(errors)} (stException, console errors, page errors, disconnects, ")
    print(f"timeouts); run took {elapsed:.0f} s.")
    for error in errors[:30]:
        print(f"- {error}")
    failed = bool(errors) or not all_loaded
    print("RESULT:", "FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
