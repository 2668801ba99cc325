"""Server load without browsers: N protocol-level Streamlit sessions (issue #23).

``python bench/serve_load.py [--scenario workshop|dashboard] [--sessions 1,10,30,60,100]
[--duration 30] [--think 3] [--replicas K] [--url http://127.0.0.1:PORT --pid PID]``

Each session is one websocket on ``/_stcore/stream`` speaking Streamlit's own protobufs
from the installed package, as the browser's front end does: it sends
``BackMsg.rerun_script`` (a ``ClientState`` with the view's ``query_string`` and its
``page_name``, e.g. ``Heatmap``) and reads ``ForwardMsg``s until ``script_finished``. Every
control of the app is bound to the URL, so a query string is a complete setting. A
session then thinks for an exponential time (mean ``--think`` s) and asks again:

- ``workshop``: every session asks for the presenter's current view; the presenter moves
  to the next view every ``--step-every`` s (the story's steps ``/Start_here?step=N``
  when ``ui.features.story.view.STEPS`` exists, else the first tab of each menu page;
  ``--page Heatmap`` follows the presenter on one menu page instead, moving one of its
  settings through a few stops in turn: :func:`presenter_views`; ``--page all`` runs
  every menu page and the story in turn, one row each);
- ``dashboard``: each session opens a random page and tab, then changes one random
  setting (a value its control offers) per rerun, and moves to another page at random.

Like the browser, each session keeps the large messages the server marks cacheable (a
chart of >= 10 kB) and names them in its next rerun, so that the server sends a reference
instead of the chart again (:class:`MessageCache`; the front end's ``ForwardMsgCache``).

Latency = ``rerun_script`` sent -> ``script_finished`` received. Errors: an exception
element in the deltas, a script that did not finish successfully, ``page_not_found``, a
closed socket, no ``script_finished`` within 60 s, a reference to a message the session
does not have. Server CPU and RSS come from ``/proc``
of the server processes (summed over replicas). Before anything runs, the messages and
fields used are checked against the installed ``streamlit``; a Streamlit upgrade that
changed them stops the bench with a message naming what is missing.

Without ``--url`` the bench starts ``--replicas`` K servers (``streamlit run app.py``) on
127.0.0.1; with K >= 1 and ``--nginx`` (default for K >= 2) Debian's ``nginx`` (installed
with apt-get if missing) balances them with the config of ``deploy/nginx.conf`` (sticky by
a cookie; every bench session carries its own), and everything stops at the end.
Traffic goes to 127.0.0.1 only. Exit status 1 if any run had errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# ui modules imported here (views, specs) warn that no Streamlit runtime runs: quiet.
os.environ.setdefault("STREAMLIT_LOGGER_LEVEL", "error")

RERUN_TIMEOUT = 60.0  # s without script_finished: an error
CONNECT_TIMEOUT = 30.0
MAX_MESSAGES = 5000  # ForwardMsgs read per rerun at most
COOKIE = "posenc_route"  # the sticky cookie of deploy/nginx.conf
SIZES = (1, 10, 30, 60, 100)

# (message, field) pairs the client relies on; checked against the installed streamlit.
REQUIRED = {
    "BackMsg": ("rerun_script",),
    "ClientState": ("query_string", "page_script_hash", "page_name", "cached_message_hashes"),
    "ForwardMsg": ("script_finished", "delta", "page_not_found", "ref_hash", "hash", "metadata"),
    "Delta": ("new_element",),
    "Element": ("exception",),
}
REQUIRED_ONEOFS = {
    "BackMsg": ("type", "rerun_script"),
    "ForwardMsg": ("type", "script_finished"),
    "Delta": ("type", "new_element"),
    "Element": ("type", "exception"),
}


def check_protocol() -> None:
    """Stop with a clear message if the installed Streamlit lacks a message we use."""
    import streamlit
    from streamlit.proto import BackMsg_pb2, ClientState_pb2, Delta_pb2, Element_pb2, ForwardMsg_pb2

    messages = {
        "BackMsg": BackMsg_pb2.BackMsg,
        "ClientState": ClientState_pb2.ClientState,
        "ForwardMsg": ForwardMsg_pb2.ForwardMsg,
        "Delta": Delta_pb2.Delta,
        "Element": Element_pb2.Element,
    }
    missing = []
    for name, fields in REQUIRED.items():
        descriptor = messages[name].DESCRIPTOR
        missing += [f"{name}.{f}" for f in fields if f not in descriptor.fields_by_name]
    for name, (oneof, member) in REQUIRED_ONEOFS.items():
        field_ = messages[name].DESCRIPTOR.fields_by_name.get(member)
        if field_ is None or field_.containing_oneof is None:
            missing.append(f"{name}.{member} in oneof {oneof}")
        elif field_.containing_oneof.name != oneof:
            missing.append(f"{name}.{member} in oneof {oneof} (now {field_.containing_oneof.name})")
    status = ForwardMsg_pb2.ForwardMsg.ScriptFinishedStatus
    if "FINISHED_SUCCESSFULLY" not in status.keys():
        missing.append("ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY")
    if missing:
        raise SystemExit(
            f"serve_load: streamlit {streamlit.__version__} changed the protocol this bench "
            f"speaks; missing: {', '.join(missing)}. See bench/README.md (Server load) for "
            "the messages it relies on and update bench/serve_load.py."
        )


# --- views -------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    page: str  # page_name as the front end sends it: "" for home, "Heatmap", ...
    query: str  # query string without "?"

    def label(self) -> str:
        return f"/{self.page}" + (f"?{self.query}" if self.query else "")


def workshop_views() -> list[View]:
    """The presenter's views: story steps if the story exists, else each page's first tab."""
    story = ROOT / "pages" / "0_Start_here.py"
    if story.exists():
        try:
            steps = importlib.import_module("ui.features.story.view").STEPS
        except (ImportError, AttributeError):
            steps = ()
        if steps:
            return [View("Start_here", f"step={n}") for n in range(1, len(steps) + 1)]
    return page_views()


# The setting a presenter moves on each menu page (``--page``): the page's first slider,
# except where the page's main figure follows the shared sequence length.
PRESENTER_SETTING = {"home": "seq_len", "heatmap": "seq_len", "wavelengths": "seq_len"}
PRESENTER_STOPS = 3  # the default and the next two stops of the setting's slider


def _page_entry(name: str):
    """The menu entry whose name (``heatmap``) or URL path (``Heatmap``, ``/Heatmap``,
    ``Start_here``, ``""`` or ``home`` for the home page) is ``name``."""
    from ui.shared import menu

    wanted = name.strip().strip("/").lower()
    for entry in menu.PAGES:
        if wanted in (entry.name, entry.url_path.strip("/").lower()):
            return entry
    if wanted == "":
        return menu.PAGES[0]
    names = ", ".join(e.url_path.strip("/") or "home" for e in menu.PAGES)
    raise SystemExit(f"serve_load: no menu page {name!r} (pages: {names}, all)")


def presenter_views(name: str, stops: int = PRESENTER_STOPS) -> list[View]:
    """The presenter on one menu page: its first tab at the defaults, then the page's
    presenter setting (:data:`PRESENTER_SETTING`, else its first numeric slider) at the
    next ``stops - 1`` stops its control offers above the default; the story: its steps."""
    from tests.support import views as put
    from ui.plain.params import SHARED, FloatParam, IntParam

    entry = _page_entry(name)
    page = entry.url_path.lstrip("/")
    if entry.name == "story":
        return workshop_views()
    first_tab = dict(put.tabs(entry)[0][1])
    numeric = [
        s
        for s in (*put.specs_of(entry), *SHARED)
        if isinstance(s, (IntParam, FloatParam)) and s.key != "present"
    ]
    wanted = PRESENTER_SETTING.get(entry.name)
    spec = next((s for s in numeric if s.key == wanted), numeric[0] if numeric else None)
    views = [View(page, urlencode(first_tab))]
    if spec is None:
        return views
    above = [v for v in _choices(spec) if float(v) > float(spec.default)]
    for value in above[: stops - 1]:
        views.append(View(page, urlencode({**first_tab, spec.key: value})))
    return views


def parse_views(text: str) -> list[View]:
    """``/Heatmap?hm_tab=Table,/RoPE`` -> views (page name without the slash)."""
    views = []
    for item in text.split(","):
        path, _, query = item.strip().partition("?")
        views.append(View(path.strip("/"), query))
    return views


def page_views() -> list[View]:
    """The first tab of each menu page at its defaults."""
    from ui.shared import menu

    return [View(entry.url_path.lstrip("/"), "") for entry in menu.PAGES]


def _choices(spec) -> list[str]:
    """Values a reader can pick for ``spec`` (a slider's stops, a choice's options)."""
    from ui.plain.params import BoolParam, ChoiceParam, FloatParam, IntParam, nice_values

    if isinstance(spec, IntParam):
        values = nice_values(spec)
        return [str(v) for v in values] or [str(spec.default)]
    if isinstance(spec, FloatParam):
        low = spec.minimum if spec.minimum > 0 else (spec.maximum - spec.minimum) / 100
        if spec.maximum / max(low, 1e-12) > 1000:  # bases: log-spaced
            return [f"{low * (spec.maximum / low) ** (i / 12):.6g}" for i in range(13)]
        return [f"{spec.minimum + (spec.maximum - spec.minimum) * i / 10:.6g}" for i in range(11)]
    if isinstance(spec, ChoiceParam):
        return list(spec.options)
    if isinstance(spec, BoolParam):
        return ["false", "true"]
    return []  # free text stays at its default


class Dashboard:
    """Random pages and settings, one change per rerun (from tests/support/views.py)."""

    def __init__(self, rng: random.Random, pages: str | None = None):
        from tests.support import views as put
        from ui.shared import menu

        self.rng = rng
        self.pages = []
        wanted = set(pages.split(",")) if pages else None
        for entry in menu.PAGES:
            if wanted is not None and entry.name not in wanted:
                continue
            specs = [s for s in put.all_specs(entry) if s.key != "present"]
            specs = [s for s in specs if not s.key.endswith("_tab")]
            tabs = [q for _, q in put.tabs(entry)]
            self.pages.append((entry.url_path.lstrip("/"), specs, tabs))
        self.page = None
        self.settings: dict[str, str] = {}

    def next(self) -> View:
        if self.page is None or self.rng.random() < 0.15:
            self.page = self.rng.choice(self.pages)
            self.settings = dict(self.rng.choice(self.page[2]))
        else:
            specs = [s for s in self.page[1] if _choices(s)]
            spec = self.rng.choice(specs)
            self.settings[spec.key] = self.rng.choice(_choices(spec))
        return View(self.page[0], urlencode(self.settings))


# --- one session -------------------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # s, reruns started in the window
    errors: list[str] = field(default_factory=list)
    views: dict[str, int] = field(default_factory=dict)


class MessageCache:
    """The browser's cache of large messages (the front end's ``ForwardMsgCache``): it
    keeps each message the server marks ``cacheable`` (an element of >= 10 kB, e.g. a
    chart) by its hash, sends those hashes with every rerun, and the server then sends a
    ``ref_hash`` in place of a message the browser has. An entry not used for more than
    ``max_age`` runs (the server's ``global.maxCachedMessageAge``) is dropped, as there."""

    def __init__(self, max_age: int = 2) -> None:
        self.max_age = max_age
        self.runs = 0
        self.used: dict[str, int] = {}  # hash -> the run that last used it
        self.references = 0  # messages the server sent as a reference

    def hashes(self) -> list[str]:
        return list(self.used)

    def take(self, msg) -> str | None:
        """Keep or look up ``msg``; what went wrong, if anything."""
        if msg.WhichOneof("type") == "ref_hash":
            if msg.ref_hash not in self.used:
                return f"a reference to a message this browser does not have ({msg.ref_hash})"
            self.used[msg.ref_hash] = self.runs
            self.references += 1
        elif msg.metadata.cacheable and msg.hash:
            self.used[msg.hash] = self.runs
        return None

    def finished(self) -> None:
        self.runs += 1
        self.used = {h: run for h, run in self.used.items() if self.runs - run <= self.max_age}


def rerun_message(view: View, cached: list[str] = ()) -> bytes:
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.rerun_script.query_string = view.query
    msg.rerun_script.page_name = view.page
    msg.rerun_script.page_script_hash = ""
    msg.rerun_script.cached_message_hashes.extend(cached)
    return msg.SerializeToString()


async def rerun(ws, view: View, cache: MessageCache | None = None) -> str | None:
    """One rerun of ``view``: None when it finished cleanly, else what went wrong.
    ``cache``: the browser's message cache (:class:`MessageCache`), None for none."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    ok = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_SUCCESSFULLY")
    await ws.send(rerun_message(view, cache.hashes() if cache else ()))
    problem = None
    for _ in range(MAX_MESSAGES):
        msg = ForwardMsg()
        msg.ParseFromString(await ws.recv())
        kind = msg.WhichOneof("type")
        if cache is not None:
            problem = problem or cache.take(msg)
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            if msg.delta.new_element.WhichOneof("type") == "exception":
                exc = msg.delta.new_element.exception
                problem = problem or f"exception {exc.type}: {exc.message[:80]}"
        elif kind == "page_not_found":
            problem = problem or f"page not found: {view.label()}"
        elif kind == "script_finished":
            if cache is not None:
                cache.finished()
            if msg.script_finished != ok:
                name = ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished)
                return f"script finished with {name}"
            return problem
    return f"no script_finished within {MAX_MESSAGES} messages"


async def session(
    url: str,
    views,  # callable () -> View
    start: float,
    window: tuple[float, float],
    think: float,
    rng: random.Random,
    tally: Tally,
    user_agent: str,
) -> None:
    """Open a session at ``start`` (loop time), rerun with think time until the window ends."""
    from websockets.asyncio.client import connect

    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, start - loop.time()))
    ws_url = url.replace("http", "ws", 1).rstrip("/") + "/_stcore/stream"
    headers = {"User-Agent": user_agent, "Cookie": f"{COOKIE}={uuid.uuid4().hex}"}
    try:
        async with connect(
            ws_url,
            subprotocols=["streamlit"],
            additional_headers=headers,
            max_size=None,
            open_timeout=CONNECT_TIMEOUT,
            ping_interval=None,
        ) as ws:
            cache = MessageCache()
            for _ in range(100_000):  # bounded; the window ends it first
                view = views()
                sent = loop.time()
                if sent >= window[1]:
                    break
                try:
                    problem = await asyncio.wait_for(rerun(ws, view, cache), RERUN_TIMEOUT)
                except TimeoutError:
                    problem = f"no script_finished within {RERUN_TIMEOUT:g} s"
                if sent >= window[0]:
                    tally.latencies.append(loop.time() - sent)
                    tally.views[view.page] = tally.views.get(view.page, 0) + 1
                if problem:
                    tally.errors.append(f"{view.label()}: {problem}")
                    if "within" in problem:
                        break
                pause = min(rng.expovariate(1 / think), 10 * think)
                await asyncio.sleep(max(0.0, min(pause, window[1] - loop.time())))
    except Exception as exc:  # a refused or dropped socket is an error of the run
        tally.errors.append(f"socket: {type(exc).__name__}: {str(exc)[:80]}")


# --- server processes --------------------------------------------------------------


def cpu_seconds(pids) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_mb(pids) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def load_average() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def pct(values, q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_level(
    url: str, n: int, scenario: str, args, pids, seed: int, views_list=None
) -> dict:
    """N sessions opened over the warm-up, measured for ``args.duration`` s."""
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    t0 = loop.time()
    warmup = args.warmup
    window = (t0 + warmup, t0 + warmup + args.duration)
    tally = Tally()
    views_list = views_list or workshop_views()

    def presenter() -> View:  # the presenter's view now
        step = int(max(0.0, loop.time() - t0) // args.step_every)
        return views_list[step % len(views_list)]

    tasks = []
    for i in range(n):
        session_rng = random.Random(rng.random())
        if scenario == "workshop":
            views = presenter
        else:
            views = Dashboard(session_rng, getattr(args, "pages", None)).next
        agent = PHONE_UA if i % 3 == 2 else DESKTOP_UA  # a third of the room on phones
        start = t0 + warmup * 0.8 * i / max(n, 1)
        tasks.append(session(url, views, start, window, args.think, session_rng, tally, agent))
    peak = 0.0
    cpu0 = None

    async def sample():
        nonlocal peak, cpu0
        while loop.time() < window[1]:
            if cpu0 is None and loop.time() >= window[0]:
                cpu0 = (loop.time(), cpu_seconds(pids), time.process_time())
            peak = max(peak, rss_mb(pids))
            await asyncio.sleep(0.5)

    load_before = load_average()
    await asyncio.wait_for(
        asyncio.gather(sample(), *tasks), warmup + args.duration + RERUN_TIMEOUT + 30
    )
    wall = loop.time() - cpu0[0]
    cpu = cpu_seconds(pids) - cpu0[1]
    client = time.process_time() - cpu0[2]
    done = len(tally.latencies)
    return {
        "scenario": scenario,
        "sessions": n,
        "reruns": done,
        "reruns_s": done / args.duration,
        "p50": pct(tally.latencies, 0.50),
        "p95": pct(tally.latencies, 0.95),
        "p99": pct(tally.latencies, 0.99),
        "errors": len(tally.errors),
        "error_samples": sorted(set(tally.errors))[:5],
        "cpu_cores": cpu / wall,
        "cpu_ms_per_rerun": 1000 * cpu / done if done else float("nan"),
        "rss_peak_mb": peak,
        "client_cores": client / wall,
        "load": f"{load_before}->{load_average()}",
    }


DESKTOP_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) serve_load"
PHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 serve_load"
)


def start_streamlit(port: int, env: dict | None = None, root: Path = ROOT) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(root / "app.py"),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",
            "--client.showErrorDetails",
            "full",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=root,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_healthy(url: str, processes=(), timeout: float = 90) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if any(p.poll() is not None for p in processes):
            raise RuntimeError("a server exited before answering its health check")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer its health check within {timeout:g} s")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


NGINX = "/usr/sbin/nginx"


def ensure_nginx() -> str:
    """Debian's nginx binary; installed with apt-get if missing."""
    found = shutil.which("nginx") or (NGINX if Path(NGINX).exists() else None)
    if found:
        return found
    print("serve_load: installing Debian's nginx (apt-get)", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "nginx"], check=True, env=env
    )
    return shutil.which("nginx") or NGINX


def nginx_config(ports, listen_port: int) -> str:
    """deploy/nginx.conf with the upstream include replaced by ``ports`` on 127.0.0.1 and
    the listen port by ``listen_port`` (bound to 127.0.0.1)."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    servers = "".join(f"        server 127.0.0.1:{p};\n" for p in ports)
    text = text.replace("        include upstream.conf;\n", servers)
    return text.replace("listen 8080;", f"listen 127.0.0.1:{listen_port};")


class Servers:
    """K streamlit servers (and nginx in front when asked), stopped on exit."""

    def __init__(self, replicas: int, use_nginx: bool, root: Path = ROOT, env: dict | None = None):
        self.replicas, self.use_nginx, self.root, self.env = replicas, use_nginx, root, env
        self.processes: list[subprocess.Popen] = []
        self.nginx: subprocess.Popen | None = None
        self.prefix: str | None = None

    def __enter__(self):
        ports = [free_port() for _ in range(self.replicas)]
        try:
            for port in ports:
                self.processes.append(start_streamlit(port, self.env, self.root))
            for port in ports:
                wait_healthy(f"http://127.0.0.1:{port}", self.processes)
            if self.use_nginx:
                binary = ensure_nginx()
                self.prefix = tempfile.mkdtemp(prefix="serve_load_nginx_")
                listen = free_port()
                conf = Path(self.prefix) / "nginx.conf"
                conf.write_text(nginx_config(ports, listen))
                command = [binary, "-p", f"{self.prefix}/", "-c", str(conf), "-e", "stderr"]
                self.nginx = subprocess.Popen(
                    [*command, "-g", "daemon off;"],  # in the foreground: stopped below
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                self.url = f"http://127.0.0.1:{listen}"
                wait_healthy(self.url, [self.nginx])
            else:
                self.url = f"http://127.0.0.1:{ports[0]}"
        except BaseException:
            self.__exit__()
            raise
        return self

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def __exit__(self, *exc):
        for p in [self.nginx, *self.processes]:
            if p is not None and p.poll() is None:
                p.terminate()
        for p in [self.nginx, *self.processes]:
            if p is None:
                continue
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if self.prefix:
            shutil.rmtree(self.prefix, ignore_errors=True)


# --- report ------------------------------------------------------------------------


def ms(seconds: float) -> str:
    if seconds != seconds:
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def table(rows: list[dict]) -> str:
    lines = [
        "| tree | scenario | page | sessions | reruns/s | p50 | p95 | p99 | errors "
        "| server CPU (cores) | CPU per rerun | peak RSS | client CPU (cores) | load avg |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.get('tree', '')} | {r['scenario']} | {r.get('page', '')} | {r['sessions']} "
            f"| {r['reruns_s']:.1f} "
            f"| {ms(r['p50'])} "
            f"| {ms(r['p95'])} | {ms(r['p99'])} | {r['errors']} | {r['cpu_cores']:.2f} "
            f"| {r['cpu_ms_per_rerun']:.0f} ms | {r['rss_peak_mb']:.0f} MB "
            f"| {r.get('client_cores', float('nan')):.2f} | {r['load']} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="workshop", choices=("workshop", "dashboard"))
    parser.add_argument("--sessions", default=",".join(map(str, SIZES)))
    parser.add_argument("--duration", type=float, default=30.0, help="measured s per size")
    parser.add_argument("--warmup", type=float, default=8.0, help="s to open the sessions")
    parser.add_argument("--think", type=float, default=3.0, help="mean think time, s")
    parser.add_argument("--step-every", type=float, default=20.0, help="workshop step, s")
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--nginx", action=argparse.BooleanOptionalAction, default=None)
    parser.add_argument("--url", help="an already running server (127.0.0.1 only)")
    parser.add_argument("--pid", type=int, action="append", default=[], help="its pid(s)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        help="app tree to serve (repeat to compare trees in one run, taking turns per size)",
    )
    parser.add_argument(
        "--views", help="workshop views instead of the story, e.g. '/,/Heatmap?hm_tab=Table'"
    )
    parser.add_argument(
        "--page",
        help="workshop on one menu page (Heatmap, RoPE, Start_here, home, ...; 'all': each "
        "menu page in turn, one row per page and size): the presenter moves a setting",
    )
    parser.add_argument("--pages", help="dashboard: only these menu pages, e.g. heatmap,rope")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the servers")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    check_protocol()
    # A stopped bench stops its servers too (the with-block below runs on SystemExit).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    sizes = [int(s) for s in args.sessions.split(",") if s]
    if not sizes or max(sizes) > 500 or args.duration > 600 or args.think <= 0:
        parser.error("sessions 1..500, duration <= 600 s, think > 0")
    if args.url and urlparse(args.url).hostname not in ("127.0.0.1", "localhost"):
        parser.error("--url must be on 127.0.0.1")
    use_nginx = args.replicas > 1 if args.nginx is None else args.nginx
    rows = []
    env = dict(item.split("=", 1) for item in args.env)
    roots = [Path(r).resolve() for r in args.root] or ([] if args.url else [ROOT])
    with contextlib.ExitStack() as stack:
        targets = []  # (name, url, pids)
        if args.url:
            targets.append(("given", args.url, args.pid))
        for root in roots:
            servers = stack.enter_context(Servers(args.replicas, use_nginx, root, env))
            targets.append((root.name, servers.url, servers.pids))
        runs = [("", parse_views(args.views) if args.views else workshop_views())]
        if args.page:
            pages = args.page.split(",")
            if pages == ["all"]:
                from ui.shared import menu

                pages = [e.url_path.strip("/") or "home" for e in menu.PAGES]
            runs = [(page, presenter_views(page)) for page in pages]
        for _page, views in runs:
            shown = "random"
            if args.scenario == "workshop":
                shown = ", ".join(v.label() for v in views)
            print(
                f"serve_load: {args.scenario}, {args.replicas if not args.url else '?'} "
                f"replica(s){' behind nginx' if use_nginx and not args.url else ''}, trees "
                f"{', '.join(name for name, _, _ in targets)}, views: {shown}",
                flush=True,
            )
        for n in sizes:
            for page, views in runs:
                for name, url, pids in targets:
                    row = asyncio.run(
                        run_level(url, n, args.scenario, args, pids, args.seed + n, views)
                    )
                    row["replicas"] = args.replicas
                    row["tree"] = name
                    row["page"] = page
                    rows.append(row)
                    print(table([row]).splitlines()[-1], flush=True)
                    for sample in row["error_samples"]:
                        print(f"    error: {sample}", flush=True)
    print()
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 1 if any(r["errors"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
