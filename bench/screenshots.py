"""Screenshot pages in headless Chromium: ``python bench/screenshots.py [URL_PATH ...]``.

Starts its own server unless ``--url`` is given; writes PNGs to ``test-artifacts/``.
Each argument is a path with optional query, e.g. ``/Heatmap?lang=zh``; default: home.
``--phone``: an iPhone's User-Agent, touch and a 390 px wide viewport (the app stacks
multi-panel charts for phones; see ``ui.shared.controls.phone``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, wait_for_app
from tests.support.paths import ARTIFACTS
from tests.support.server import start_server, stop_server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="*", default=["/"])
    parser.add_argument("--url", help="an already running server, e.g. http://127.0.0.1:8501")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=2400)
    parser.add_argument("--phone", action="store_true", help="iPhone User-Agent, 390 px wide")
    args = parser.parse_args()
    server = None if args.url else start_server()
    base = args.url or server.url
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            options = {"viewport": {"width": args.width, "height": args.height}}
            if args.phone:
                options = p.devices["iPhone 13"] | {"viewport": {"width": 390, "height": 3000}}
                options["device_scale_factor"] = 1  # 390 px wide PNGs, not 1170
            page = browser.new_context(**options).new_page()
            errors = []
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            for path in args.paths:
                page.goto(base + path)
                wait_for_app(page)
                # Widgets load their code lazily: on a busy machine a shot taken 1.5 s
                # after the run showed grey placeholders where the inputs belong.
                page.wait_for_function(
                    "() => !document.querySelector('[data-testid^=stSkeleton]')",
                    timeout=60_000,
                )
                page.wait_for_timeout(1500)  # let Plotly and KaTeX finish drawing
                name = re.sub(r"[^A-Za-z0-9_=-]+", "_", path.strip("/")) or "home"
                name += "_phone" if args.phone else ""
                out = ARTIFACTS / f"shot_{name}.png"
                page.screenshot(path=str(out), full_page=True)
                exceptions = page.locator("[data-testid=stException]").count()
                print(f"{out}  exceptions={exceptions}")
            if errors:
                print("console errors:", *errors[:10], sep="\n  ")
            browser.close()
    finally:
        if server:
            stop_server(server)


if __name__ == "__main__":
    main()
