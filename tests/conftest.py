"""Shared fixtures: AppTest runner, chart decoding, a live server and a browser."""

from __future__ import annotations

import base64
import collections
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
# The script that made the peer values imports torch and transformers, which the
# tests do not need (its doctest collection would import them).
collect_ignore = ["peers/make_peer_values.py", "peers/make_scheme_peer_values.py"]  # need torch
APP = ROOT / "app.py"
PAGES = sorted((ROOT / "pages").glob("*.py"))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
# How many cases the sweeping tests tried (printed in the summary).
CASES: collections.Counter = collections.Counter()
# Words of prose each view shows open: view -> (whole view, its tab) (test_word_budget).
WORDS: dict[str, tuple[int, int]] = {}


# Under pytest-xdist (the README's command runs two workers) the tests that start a
# Streamlit server, nginx or Chromium run in one group on one worker, one at a time:
# a browser test's timeouts then meet one server's load, not two, and two Chromiums
# never compete for the two cores. Everything else (AppTest, unit, property tests) is
# spread over the workers. Without xdist the mark does nothing.
SERVER_FIXTURES = {"server", "browser", "page"}
SERVER_FILES = {
    "test_cold_start.py",
    "test_deploy.py",
    "test_serve_load.py",
    "test_test_server.py",
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core plus one. The servers group spends most of its
    time waiting on a page load, a server start or a timed load run (the whole suite
    kept 1.1 of 2 cores busy with one worker per core), so a third worker fills the gap."""
    return (os.cpu_count() or 1) + 1


def runs_servers(item) -> bool:
    """Whether test ``item`` starts a server or a browser (see ``SERVER_FILES``)."""
    return (
        item.get_closest_marker("browser") is not None
        or bool(SERVER_FIXTURES & set(getattr(item, "fixturenames", ())))
        or item.path.name in SERVER_FILES
    )


# Chromium there only runs KaTeX on strings (no page is loaded); the AppTest runs that
# find the formulas are most of its time, so its tests spread over the workers (each
# worker then has its own server and browser).
KATEX_ONLY_FILES = {"test_formulas.py"}


def in_server_group(item) -> bool:
    return runs_servers(item) and item.path.name not in KATEX_ONLY_FILES


def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if in_server_group(item):
            item.add_marker(pytest.mark.xdist_group("servers"))


def pytest_sessionfinish(session):
    """A worker hands its counts to the controller, which prints the summary."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["posenc_cases"] = dict(CASES)
        output["posenc_words"] = {view: list(n) for view, n in WORDS.items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    output = getattr(node, "workeroutput", {})
    CASES.update(output.get("posenc_cases", {}))
    for view, (whole, tab) in output.get("posenc_words", {}).items():
        WORDS[view] = (whole, tab)


def pytest_terminal_summary(terminalreporter):
    if CASES:
        tried = ", ".join(f"{n} {what}" for what, n in sorted(CASES.items()))
        terminalreporter.write_line(f"cases tried: {tried}")
    if WORDS:
        ranked = sorted(WORDS.items(), key=lambda item: -item[1][0])
        listed = ", ".join(f"{view} {view_n} ({tab_n} in tab)" for view, (view_n, tab_n) in ranked)
        terminalreporter.write_line(f"words per view, largest first: {listed}")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """st.cache_data leaks between AppTest instances."""
    st.cache_data.clear()
    yield


def run_page(
    page: str | Path | None = None, query: dict | None = None, timeout: float = 60
) -> AppTest:
    """Run the home page or ``pages/<page>`` with ``query`` parameters; fail on exceptions.

    A page is opened through the entrypoint (``switch_page`` before the first run), as
    Streamlit does for a deep link: run as the main script, its ``st.page_link("app.py")``
    would be resolved against ``pages/``.
    """
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    if page is not None:
        path = ROOT / "pages" / page if isinstance(page, str) else Path(page)
        if path.resolve() != APP:
            at.switch_page(str(path.relative_to(ROOT)))
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def rendered(markdown: str) -> str:
    """Markdown source as a reader sees its characters: backslash escapes of ASCII
    punctuation removed (``'3\\.7'`` -> ``'3.7'``; ``ui.plain.safe_text`` escapes values)."""
    return _ESCAPED.sub(r"\1", markdown)


def notice_text(at: AppTest) -> str:
    """Every warning of the run, as read on screen (see :func:`rendered`)."""
    return " ".join(rendered(w.value) for w in at.warning)


def decode(value):
    """Plotly >= 6 typed-array JSON ({dtype, bdata, shape}) -> ndarray; else unchanged."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            array = array.reshape([int(n) for n in str(value["shape"]).split(",")])
        return array
    return value


def figures(at: AppTest) -> list[dict]:
    """Every Plotly figure drawn by the script, as dicts (arrays still encoded)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def chart(at: AppTest, key: str) -> dict:
    """The figure of the chart drawn with ``key`` (chart ids contain their key)."""
    for element, fig in zip(at.get("plotly_chart"), figures(at), strict=True):
        if key in element.proto.id:
            return fig
    raise KeyError(key)


def tab_label(specs, name: str, lang: str = "en") -> str:
    """The URL label of lazy tab ``name`` of a page (``specs``: its ``ui.specs`` module)."""
    offset = len(specs.TAB_NAMES) if lang == "zh" else 0
    return specs.TAB.options[offset + specs.TAB_NAMES.index(name)]


def run_page_on_tab(page, specs, query: dict | None, tab: str | None, timeout: float) -> AppTest:
    """:func:`run_page` with lazy tab ``tab`` (a name of ``specs.TAB_NAMES``) in the URL;
    ``None`` opens the first tab."""
    query = {k: str(v) for k, v in (query or {}).items()}
    if tab:
        query[specs.TAB.key] = tab_label(specs, tab)
    return run_page(page, query, timeout)


def switch_tab(at: AppTest, specs, name: str) -> AppTest:
    """Open another tab in a running AppTest, as a click does (the URL and the widget)."""
    label = tab_label(specs, name)
    at.query_params[specs.TAB.key] = label
    at.session_state[specs.TAB.key] = label
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int, process: subprocess.Popen):
        self.port = port
        self.process = process
        self.url = f"http://127.0.0.1:{port}"


def start_server(port: int | None = None, extra_env: dict | None = None) -> Server:
    """Start ``streamlit run app.py`` on loopback and wait for its health check.

    A free port is only free when it is picked: another process (say a second test run's
    server) may bind it first. Then the health check would be answered by that server
    while ours fails to bind and exits, so the check only counts once our own process
    listens on the port; without an explicit ``port`` a new one is tried.
    """
    for _attempt in range(3):
        chosen = port or free_port()
        server = _start_once(chosen, extra_env)
        if server is not None:
            return server
        if port:
            break
    raise RuntimeError(f"streamlit exited before its health check answered (port {chosen})")


def _start_once(port: int, extra_env: dict | None) -> Server | None:
    env = {**os.environ, **(extra_env or {})}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(APP),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return Server(port, process) if answers(process, port) else None
    except TimeoutError:
        process.kill()
        raise RuntimeError("streamlit did not start within 60 s") from None


def answers(process: subprocess.Popen, port: int, timeout: float = 60) -> bool:
    """Wait until the Streamlit server ``process`` answers its health check on ``port``:
    True then, False if the process exited first (it could not bind the port, or
    crashed); ``TimeoutError`` after ``timeout`` seconds. An answer counts only once
    ``process`` itself listens on the port, not another server that holds it."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200 and listens(process.pid, port):
                    return True
        except OSError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"no health answer on port {port} within {timeout:g} s")


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` has a listening TCP socket on ``port`` (Linux ``/proc``;
    elsewhere assumed)."""
    fds = Path(f"/proc/{pid}/fd")
    if not Path("/proc/net/tcp").exists():
        return True
    inodes = set()
    for fd in fds.iterdir() if fds.exists() else ():
        try:
            link = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if link.startswith("socket:["):
            inodes.add(link[len("socket:[") : -1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()  # sl local remote state ... uid timeout inode
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port and inode in inodes:
                return True
    return False


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(10)
    except subprocess.TimeoutExpired:
        server.process.kill()


@pytest.fixture(scope="session")
def server():
    """One Streamlit server for the whole browser session."""
    srv = start_server()
    yield srv
    stop_server(srv)


def _require_browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing under CI: .ci/run must install it")
        pytest.skip("Debian chromium not installed (apt-get install chromium)")


@pytest.fixture(scope="session")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    """A fresh page; on failure a screenshot goes to test-artifacts/."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.console_errors = []
    pg.bad_responses = []
    pg.on("console", lambda m: m.type == "error" and pg.console_errors.append(m.text))
    pg.on("response", lambda r: r.status >= 400 and pg.bad_responses.append(r.url))
    yield pg
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


# On a page's subpath the front end probes /<page>/_stcore/health and host-config and
# gets 404 before it tries the root: Streamlit's own behaviour, not an app error.
KNOWN_PROBES = ("/_stcore/health", "/_stcore/host-config")


def real_errors(pg) -> list[str]:
    """Console errors and failed responses, less the known subpath probes."""
    unexpected = [u for u in pg.bad_responses if not u.endswith(KNOWN_PROBES)]
    probe_404 = "Failed to load resource: the server responded with a status of 404"
    console = [m for m in pg.console_errors if not (m.startswith(probe_404) and not unexpected)]
    return unexpected + console


def wait_for_app(pg, timeout: float = 60_000) -> None:
    """Wait until the script finished and at least one chart is drawn (or none expected)."""
    pg.wait_for_selector("[data-testid=stApp]", timeout=timeout)
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=stApp]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'",
        timeout=timeout,
    )
