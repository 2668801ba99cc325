"""Server memory from uploads and downloads (issue #24, item 3).

``python bench/upload_download_memory.py [--scenario uploads,downloads,loads] [--root DIR]
[--env MALLOC_ARENA_MAX=2] [--port 8750]``

Starts its own server on 127.0.0.1 (``--root``: the app directory, default this
repository; a copy of an older commit measures "before") and one headless Chromium, and
samples the server's RSS (``/proc/<pid>/status``) every 50 ms. Scenarios, each on a
fresh server:

- ``uploads``: 4 sessions at once open the Heatmap page and upload 4 different 16 MB
  ``.npy`` files (float16, 8192 x 1024: the largest a 20 MB upload holds within the
  cell cap; ``--upload-kind uint8`` for the issue's uint8 8192 x 2048), then each moves
  a slider 3 times (reruns with the upload in place); then all sessions close.
- ``downloads``: the 3 largest downloads, one after another, each in its own session,
  the largest format offered (CSV if there is one, else .npy): the RoPE score matrix
  at L = 4096, d = 256; the binary distance matrix at seq_len = 8192; the heatmap
  table at 1000 x 1000 (the table's own cap). Then all sessions close.
- ``loads``: ``--loads`` page loads at the largest settings (every menu page, each lazy
  tab, ``rerun_scaling.largest_settings``), one session at a time; then idle RSS. Run
  it once plain and once with ``--env MALLOC_ARENA_MAX=2`` to see glibc's arenas.

"After close" = RSS once every session has ended: the server runs with
``server.disconnectedSessionTTL=5`` (default 120 s: a closed tab's session is kept that
long for a reconnect), the bench waits past it, opens one home page (a new session is
what makes Streamlit drop expired ones) and closes it, then waits ``--settle`` seconds;
a second reading comes ``--late`` seconds after the close (default 90: past the two
sweeps a built download schedules, 30 s apart). ``--root`` a ``git archive`` copy of an
older commit measures "before". Prints a markdown table for bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from bench.rerun_scaling import largest_settings, tab_queries  # noqa: E402
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.support.server import answers  # noqa: E402

SERVER_ENV = {
    "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
    "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS": "full",
    "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "5",
}
APP_IDLE = (
    "() => document.querySelector('[data-testid=stApp]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)
TIMEOUT_MS = 240_000
DOWNLOADS = [
    ("RoPE scores L=4096 d=256", "/RoPE", {"rope_len": "4096", "rope_head_dim": "256"}),
    (
        "binary distance seq_len=8192",
        "/Binary_vs_sinusoid",
        {"seq_len": "8192", "bin_tab": "Distance matrix"},
    ),
    ("heatmap table 1000 x 1000", "/Heatmap", {"seq_len": "1000", "d_model": "1000"}),
]
MENU = ["app", "heatmap", "wavelengths", "binary", "rotation", "rope"]
URLS = {
    "app": "/",
    "heatmap": "/Heatmap",
    "wavelengths": "/Wavelengths",
    "binary": "/Binary_vs_sinusoid",
    "rotation": "/Rotation",
    "rope": "/RoPE",
}


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Sampler:
    """RSS of one process every 50 ms; ``peak()`` since the last ``mark()``."""

    def __init__(self, pid: int):
        self.pid, self.samples, self.stop = pid, [], threading.Event()
        self.since = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                self.samples.append(rss_mb(self.pid))
            except OSError:
                return
            time.sleep(0.05)

    def mark(self) -> None:
        self.since = len(self.samples)

    def peak(self) -> float:
        return max(self.samples[self.since :] or [rss_mb(self.pid)])

    def now(self) -> float:
        return rss_mb(self.pid)


def start(root: Path, port: int, env: dict[str, str]) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(root / "app.py"),
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=root, env={**os.environ, **SERVER_ENV, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    if not answers(process, port):
        raise RuntimeError(f"the server did not start on port {port}")
    return process


def npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def upload_files(kind: str) -> list[bytes]:
    """4 different 16 MB files."""
    files = []
    for seed in range(4):
        rng = np.random.default_rng(seed)
        if kind == "uint8":
            files.append(npy(rng.integers(0, 256, (8192, 2048), dtype=np.uint8)))
        else:
            files.append(npy(rng.standard_normal((8192, 1024)).astype(np.float16)))
    return files


async def idle(page) -> None:
    await page.wait_for_function(APP_IDLE, timeout=TIMEOUT_MS)


async def open_page(context, url: str):
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)  # a loaded machine: clicks and uploads wait
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)[:200]))
    await page.goto(url, timeout=TIMEOUT_MS)
    await page.wait_for_selector("[data-testid=stApp]", timeout=TIMEOUT_MS)
    await idle(page)
    return page, errors


async def rerun(page) -> float:
    """One arrow key on the first slider; seconds until the script is idle again."""
    slider = page.get_by_role("slider").first
    started = time.monotonic()
    await slider.press("ArrowRight")
    await page.wait_for_timeout(150)
    await idle(page)
    return time.monotonic() - started


async def end_sessions(
    browser, base: str, contexts, sampler: Sampler, settle: float, late: float
) -> tuple[float, float]:
    """RSS ``settle`` s after every session ended, and ``late`` s after the close."""
    closed = time.monotonic()
    for context in contexts:
        await context.close()
    await asyncio.sleep(8)  # past the 5 s session TTL
    context = await browser.new_context()
    await open_page(context, base + "/")  # a new session drops the expired ones
    await context.close()
    await asyncio.sleep(settle)
    soon = sampler.now()
    await asyncio.sleep(max(0.0, closed + late - time.monotonic()))
    return soon, sampler.now()


async def uploads(browser, base, sampler, args) -> dict:
    files = upload_files(args.upload_kind)
    contexts = [await browser.new_context(viewport={"width": 1280, "height": 900}) for _ in files]
    pages = [await open_page(c, base + "/Heatmap") for c in contexts]
    sampler.mark()
    opened = sampler.now()

    outcomes: list[str] = []

    async def one(page, data: bytes, n: int) -> list[float]:
        await page.get_by_role("button", name="Compare with your embeddings").click()
        started = time.monotonic()
        await page.locator("input[type=file]").set_input_files(
            files=[{"name": f"e{n}.npy", "mimeType": "application/octet-stream", "buffer": data}]
        )
        await page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=stPlotlyChart]').length >= 2"
            " || document.querySelector('[data-testid=stAlertContentError]')",
            timeout=TIMEOUT_MS,
        )  # the learned table is drawn, or the file is refused
        await idle(page)
        times = [time.monotonic() - started]
        charts = await page.locator("[data-testid=stPlotlyChart]").count()
        refused = await page.locator("[data-testid=stAlertContentError]").count()
        outcomes.append("refused" if refused else f"{charts} charts")
        await page.keyboard.press("Escape")  # close the popover
        for _ in range(3):
            times.append(await rerun(page))
        return times

    pairs = enumerate(zip(pages, files, strict=True))
    times = await asyncio.gather(*(one(p, f, n) for n, ((p, _), f) in pairs))
    peak = sampler.peak()
    held = sampler.now()
    errors = [e for _, errs in pages for e in errs]
    after, late = await end_sessions(browser, base, contexts, sampler, args.settle, args.late)
    upload_s = [t[0] for t in times]
    rerun_s = [x for t in times for x in t[1:]]
    return {
        "what": f"4 sessions upload {len(files[0]) / 2**20:.0f} MB {args.upload_kind} .npy",
        "opened": opened, "peak": peak, "held": held, "after": after, "late": late,
        "detail": f"{', '.join(outcomes)}; upload {max(upload_s):.1f} s max; rerun median "
        f"{float(np.median(rerun_s)):.2f} s, max {max(rerun_s):.2f} s"
        + (f"; page errors: {errors}" if errors else ""),
    }  # fmt: skip


async def downloads(browser, base, sampler, args) -> dict:
    contexts, sizes = [], []
    opened = sampler.now()
    sampler.mark()
    for label, url, query in DOWNLOADS:
        context = await browser.new_context(accept_downloads=True)
        contexts.append(context)
        q = urlencode(query)
        page, _ = await open_page(context, f"{base}{url}?{q}")
        await page.wait_for_selector("[data-testid=stPlotlyChart]", timeout=TIMEOUT_MS)
        await (
            page.locator("button", has_text="expand_more").filter(has_text="Download").first.click()
        )
        await page.wait_for_timeout(300)
        names = [
            await b.inner_text()
            for b in await page.locator("[data-testid=stDownloadButton] button").all()
        ]
        choice = next((want for want in ("CSV", ".npy") for n in names if want in n), None)
        if choice is None:
            sizes.append(f"{label}: nothing offered ({names})")
            continue
        started = time.monotonic()
        async with page.expect_download(timeout=TIMEOUT_MS) as info:
            await page.locator(
                "[data-testid=stDownloadButton] button", has_text=choice
            ).first.click()
        download = await info.value
        path = await download.path()
        took = time.monotonic() - started
        size = Path(path).stat().st_size / 2**20
        labels = [" ".join(n.split()[1:]) for n in names]  # minus the icon name
        offered = "/".join(dict.fromkeys(x for x in labels if x))
        sizes.append(f"{label}: {choice} of {offered}, {size:.1f} MB in {took:.1f} s")
        print(f"  {sizes[-1]}; RSS now {sampler.now():.0f} MB", flush=True)
    peak = sampler.peak()
    held = sampler.now()
    after, late = await end_sessions(browser, base, contexts, sampler, args.settle, args.late)
    return {"what": "3 largest downloads", "opened": opened, "peak": peak, "held": held,
            "after": after, "late": late, "detail": "; ".join(sizes)}  # fmt: skip


async def loads(browser, base, sampler, args) -> dict:
    targets = []
    for name in MENU:
        for _label, tab in tab_queries(name):
            targets.append((name, {**largest_settings(name), **tab}))
    sampler.mark()
    opened = sampler.now()
    contexts = []
    for n in range(args.loads):
        name, query = targets[n % len(targets)]
        context = await browser.new_context()
        q = urlencode(query)
        await open_page(context, f"{base}{URLS[name]}?{q}")
        await context.close()
    peak = sampler.peak()
    held = sampler.now()
    after, late = await end_sessions(browser, base, contexts, sampler, args.settle, args.late)
    detail = f"{len(targets)} page/tab targets in turn"
    return {"what": f"{args.loads} largest-setting page loads", "opened": opened, "peak": peak,
            "held": held, "after": after, "late": late, "detail": detail}  # fmt: skip


async def run(args) -> list[dict]:
    results = []
    env = dict(item.split("=", 1) for item in args.env)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for scenario in args.scenario.split(","):
            process = start(Path(args.root).resolve(), args.port, env)
            sampler = Sampler(process.pid)
            try:
                base = f"http://127.0.0.1:{args.port}"
                warm = await browser.new_context()
                await open_page(warm, base + "/Heatmap")
                await warm.close()
                idle_mb = sampler.now()
                print(f"{scenario}: server idle {idle_mb:.0f} MB", flush=True)
                result = await {"uploads": uploads, "downloads": downloads, "loads": loads}[
                    scenario
                ](browser, base, sampler, args)
                result["idle"] = idle_mb
                result["hwm"] = rss_mb(process.pid, "VmHWM")
                results.append(result)
                print(result, flush=True)
            finally:
                sampler.stop.set()
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
        await browser.close()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="uploads,downloads")
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--port", type=int, default=8750)
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server")
    parser.add_argument("--upload-kind", choices=("float16", "uint8"), default="float16")
    parser.add_argument("--loads", type=int, default=30)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--late", type=float, default=90.0, help="s after close, 2nd reading")
    args = parser.parse_args(argv)
    if not 8700 <= args.port <= 8799:
        parser.error("--port must be in 8700-8799")
    results = asyncio.run(run(args))
    env = " ".join(args.env) or "default malloc"
    print(f"\nroot {args.root}, {env}, load average {os.getloadavg()[0]:.1f}\n")
    late = f"{args.late:g} s after close (MB)"
    print("| scenario | idle (MB) | peak RSS (MB) | RSS with sessions open (MB) | "
          f"RSS after close (MB) | {late} | details |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in results:
        print(f"| {r['what']} | {r['idle']:.0f} | {r['peak']:.0f} | {r['held']:.0f} | "
              f"{r['after']:.0f} | {r['late']:.0f} | {r['detail']} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
