"""Which tests start a server, nginx or Chromium, which share the xdist ``servers`` group,
and which are ``slow`` (left out of the everyday ``python -m pytest -m "not slow"``).
``tests/conftest.py`` applies the marks; ``tests/house/test_parallel.py`` checks them.

Under pytest-xdist (the README's command runs three workers) the tests that start a
Streamlit server, nginx or Chromium run in one group on one worker, one at a time: a
browser test's timeouts then meet one server's load, not two, and two Chromiums never
compete for the two cores. Everything else (AppTest, unit, property tests) is spread over
the workers. Files are named by their basename (each is unique in the tree).
"""

from __future__ import annotations

from .paths import TESTS

SERVER_FIXTURES = {"server", "browser", "page"}
SERVER_FILES = {
    "test_cold_start.py",
    "test_deploy.py",
    "test_serve_load.py",
    "test_test_server.py",
}
# Chromium there only runs KaTeX on strings (no page is loaded); the AppTest runs that
# find the formulas are most of its time, so its tests spread over the workers (each
# worker then has its own server and browser).
KATEX_ONLY_FILES = {"test_formulas.py"}
# Every test in these folders is slow: real browsers, and sweeps over every page and tab.
SLOW_FOLDERS = (TESTS / "browser", TESTS / "sweeps")


def runs_servers(item) -> bool:
    """Whether test ``item`` starts a server or a browser (see ``SERVER_FILES``)."""
    return (
        item.get_closest_marker("browser") is not None
        or bool(SERVER_FIXTURES & set(getattr(item, "fixturenames", ())))
        or item.path.name in SERVER_FILES
    )


def in_server_group(item) -> bool:
    """Whether ``item`` runs in the xdist ``servers`` group."""
    return runs_servers(item) and item.path.name not in KATEX_ONLY_FILES


def is_slow(item) -> bool:
    """Whether ``item`` is ``slow``: in ``SLOW_FOLDERS`` or starting a server or browser.
    A sweep in a page's own file (every tab at its largest settings, every story step)
    says so itself with ``@pytest.mark.slow``."""
    return runs_servers(item) or any(item.path.is_relative_to(f) for f in SLOW_FOLDERS)
