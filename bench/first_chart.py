"""Time to first chart in headless Chromium, each page vs a bare Streamlit page (issue #7).

``python bench/first_chart.py [--loads N] [--quick]``

Two servers on 127.0.0.1 in the same run: the app, and a bare one-file Streamlit app
that draws one small Plotly chart (written to a temporary folder with a copy of the
app's ``.streamlit/config.toml``). Each load opens a fresh browser context (no cache,
no cookies) and measures, with the page's own clock, the time from navigation start
until the first ``[data-testid=stPlotlyChart] .main-svg`` is in the document. Loads
take turns between the bare page and the app's pages; the first round is a warm-up
(server-side caches, imports). Report: median per page; target page / bare <= 1.3.
An informational column divides by the same bare page served at a page URL (``/bare``
of a two-page app): every page URL first costs the front end a failed probe of
``/<page>/_stcore/health``, however bare the page.
Exit status 1 if a page misses the target, shows an exception or draws no chart.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import answers, free_port, start_server, stop_server  # noqa: E402
from ui.shared import menu  # noqa: E402

TARGET = 1.3
# Edits to the working tree during a run must not reload modules under the sessions;
# an exception on screen should say what it is (the public config redacts it).
SERVER_ENV = {
    "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
    "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS": "full",
}
CHART = "[data-testid=stPlotlyChart] .main-svg"
BARE_PAGE = '''"""Bare reference page: one small Plotly chart, nothing else."""

import plotly.graph_objects as go
import streamlit as st

st.plotly_chart(go.Figure(go.Scatter(x=[0, 1, 2, 3], y=[0, 1, 0, 1])), width="stretch")
'''
# On a page URL (/RoPE) the front end first probes /RoPE/_stcore/health and
# /RoPE/_stcore/host-config, gets 404, then uses the root: logged, but not an app error.
SUBPATH_PROBE = re.compile(r"^https?://[^/]+/[^/]+/_stcore/(health|host-config)$")
# Resolves with performance.now() (ms since navigation start) once a chart is drawn.
FIRST_CHART_JS = f"() => document.querySelector('{CHART}') ? performance.now() : null"


class BareServer:
    """``streamlit run`` of the bare page, on loopback, in a temporary folder.

    With ``page_url``, the same page is also ``pages/1_chart.py``, served at ``/chart``:
    the front end then probes ``/chart/_stcore/health`` first, as it does on every page
    of the app (informational reference, not the target's). ``source`` replaces the
    page and ``link_pages`` adds empty pages ``pages/<i>_p<i>.py`` (i = 2, 3, ...) as
    targets of ``st.page_link`` (``first_chart_parts.py``).
    """

    def __init__(
        self, *, page_url: bool = False, source: str = BARE_PAGE, link_pages: int = 0
    ) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bare_streamlit_"))
        (self.folder / "bare.py").write_text(source)
        pages = self.folder / "pages"
        if page_url or link_pages:
            pages.mkdir()
        if page_url:
            (pages / "1_chart.py").write_text(source)
        for i in range(2, 2 + link_pages):  # empty targets for st.page_link
            (pages / f"{i}_p{i}.py").write_text("")
        config = ROOT / ".streamlit" / "config.toml"
        if config.exists():
            (self.folder / ".streamlit").mkdir()
            shutil.copy(config, self.folder / ".streamlit" / "config.toml")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "bare.py",
                "--server.port",
                str(self.port),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            if answers(self.process, self.port):
                return
        except TimeoutError:
            pass
        self.stop()
        raise RuntimeError("bare streamlit server exited or did not answer within 60 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def first_chart_ms(browser, url: str, timeout_ms: float) -> tuple[float, int, list[str]]:
    """One cold load: (ms to first chart, exceptions shown, console errors)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []

    def on_console(message) -> None:
        if message.type == "error" and not SUBPATH_PROBE.match(message.location.get("url", "")):
            errors.append(f"{message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    try:
        page.goto(url, wait_until="commit", timeout=timeout_ms)
        handle = page.wait_for_function(FIRST_CHART_JS, timeout=timeout_ms, polling="raf")
        elapsed = float(handle.json_value())
        page.wait_for_function(
            "() => document.querySelector('[data-testid=stApp]')"
            "?.getAttribute('data-test-script-state') === 'notRunning'",
            timeout=timeout_ms,
        )
        exceptions = page.locator("[data-testid=stException]").count()
    finally:
        context.close()
    return elapsed, exceptions, errors


def options(argv: list[str] | None, doc: str, *, loads: int, unit: str) -> argparse.Namespace:
    """``--loads/--quick/--timeout`` of the first-chart scripts; ``.loads`` is final."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--loads", type=int, default=loads, help=f"measured loads per {unit}")
    parser.add_argument("--quick", action="store_true", help=f"2 measured loads per {unit}")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per load")
    args = parser.parse_args(argv)
    args.loads = 2 if args.quick else args.loads
    return args


def chromium_missing() -> bool:
    if Path(CHROMIUM).exists():
        return False
    print(f"{CHROMIUM} is missing: apt-get install -y chromium")
    return True


def main(argv: list[str] | None = None) -> int:
    args = options(argv, __doc__, loads=7, unit="page")
    loads = args.loads
    if chromium_missing():
        return 1

    # "bare": the reference of the target; "bare page URL": the same page at /chart.
    pages = {p.name: p.url_path for p in menu.PAGES}
    targets = {"bare": None, "bare page URL": None, **pages}
    print(f"# time to first chart (headless Chromium), median of {loads} cold loads")
    print("pages:", ", ".join(f"{name} {path}" for name, path in targets.items() if path))
    times: dict[str, list[float]] = {name: [] for name in targets}
    problems: dict[str, list[str]] = {name: [] for name in targets}
    app = start_server(extra_env=SERVER_ENV)
    bare = BareServer()
    bare_paged = BareServer(page_url=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for round_ in range(loads + 1):  # round 0: warm-up
                for name, path in targets.items():
                    if name == "bare":
                        url = bare.url + "/"
                    elif name == "bare page URL":
                        url = bare_paged.url + "/chart"
                    else:
                        url = app.url + path
                    try:
                        ms, exceptions, errors = first_chart_ms(browser, url, args.timeout * 1000)
                    except Exception as error:  # a timeout: no chart drawn
                        problems[name].append(f"{type(error).__name__}: {str(error)[:120]}")
                        continue
                    if exceptions:
                        problems[name].append(f"{exceptions} exception(s) on screen")
                    problems[name] += [f"console: {e[:120]}" for e in errors]
                    if round_:
                        times[name].append(ms)
                print(f"round {round_} done", flush=True)
            browser.close()
    finally:
        bare.stop()
        bare_paged.stop()
        stop_server(app)

    bare_ms = statistics.median(times["bare"]) if times["bare"] else float("nan")
    paged = times["bare page URL"]
    paged_ms = statistics.median(paged) if paged else float("nan")
    failed = not times["bare"]
    print()
    print(
        "| page | median time to first chart (ms) | min..max (ms) | ratio to bare |"
        " ratio to bare page URL (info) | result |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for name in targets:
        ts = times[name]
        if not ts:
            print(f"| {name} | | | | FAIL: no chart |")
            failed = True
            continue
        median = statistics.median(ts)
        ratio = median / bare_ms
        reference = name.startswith("bare")
        ok = (reference or ratio <= TARGET) and not problems[name]
        failed |= not ok
        verdict = "PASS" if ok else "FAIL"
        if reference:
            verdict = "reference" if ok else "FAIL"
        print(
            f"| {name} | {median:.0f} | {min(ts):.0f}..{max(ts):.0f} | {ratio:.3f}x"
            f" | {median / paged_ms:.3f}x | {verdict} |"
        )
    for name, found in problems.items():
        for problem in dict.fromkeys(found):
            print(f"problem on {name}: {problem}")
    print(f"\ntarget: page / bare <= {TARGET}; {os.cpu_count()} cores, app and browser share them")
    print("RESULT:", "FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
