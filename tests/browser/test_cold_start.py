"""A freshly started server opened by a whole room at once (issue #24, item 1).

Every page is opened at the same moment on a server that has not imported the app
yet, in several rounds, each on a new server. The sessions' threads then import the
app's modules concurrently. ``tests/slow_imports`` makes each import of ``ui`` and
``posenc`` modules take 30 ms, so a race between those imports shows up in every
round instead of once in a while (without the fix in ``ui/texts/__init__.py`` every
round showed 4-5 exception boxes: "partially initialized module 'ui.plain.texts.en.rope'
has no attribute 'TEXTS'", "cannot import name 'table_grid' from 'ui.features.heatmap.data'").
"""

from pathlib import Path

import pytest
from support.browser import wait_for_app
from support.server import start_server, stop_server

from ui.shared import menu

pytestmark = pytest.mark.browser

ROUNDS = 3
SLOW_IMPORTS = Path(__file__).resolve().parents[1] / "slow_imports"
SERVER_ENV = {
    "PYTHONPATH": str(SLOW_IMPORTS),
    "POSENC_SLOW_IMPORT_MS": "30",
    # An exception box should say what it is (the public config shows only its type).
    "STREAMLIT_CLIENT_SHOW_ERROR_DETAILS": "full",
}


def open_every_page_at_once(browser, server) -> list[str]:
    """Open every page of the menu in its own browser context at the same moment and
    return what went wrong: exception boxes and pages that never finished."""
    contexts = [browser.new_context() for _ in menu.PAGES]
    try:
        tabs = [context.new_page() for context in contexts]
        for tab, entry in zip(tabs, menu.PAGES, strict=True):
            tab.goto(server.url + entry.url_path, wait_until="commit")  # don't wait: all at once
        problems = []
        for tab, entry in zip(tabs, menu.PAGES, strict=True):
            try:
                wait_for_app(tab, timeout=120_000)
            except Exception as error:  # a page that never opened is a failure too
                problems.append(f"{entry.url_path}: did not finish ({type(error).__name__})")
                continue
            for box in tab.locator("[data-testid=stException]").all():
                problems.append(f"{entry.url_path}: {box.inner_text()[:300]}")
        return problems
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_fresh_server_opened_on_every_page_at_once_shows_no_exception(browser, round_):
    server = start_server(extra_env=SERVER_ENV)
    try:
        problems = open_every_page_at_once(browser, server)
    finally:
        stop_server(server)
    assert problems == [], "\n".join(problems)


def test_the_slow_import_harness_really_slows_the_apps_imports():
    """The test above proves nothing if the harness is not loaded: a server started
    with its environment must take at least 30 ms per module of ``ui``."""
    import subprocess
    import sys

    code = (
        "import time; t = time.perf_counter(); import ui.plain.params; "
        "print(time.perf_counter() - t)"
    )
    env = {**__import__("os").environ, **SERVER_ENV}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=SLOW_IMPORTS.parents[1],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    # ui, ui.plain, params, safe_text, texts, and every texts_<lang> module with its page
    # folder's package: far more than 19 imports
    assert float(out.stdout) >= 19 * 0.030
