"""Headless Debian Chromium for Playwright tests: how it is launched, when the app has
finished drawing, and which console errors and failed responses count."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


def require_browser() -> None:
    """Skip without Chromium; fail under CI (``.ci/run`` installs it)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("chromium is missing under CI: .ci/run must install it")
        pytest.skip("Debian chromium not installed (apt-get install chromium)")


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
