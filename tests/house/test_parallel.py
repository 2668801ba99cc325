"""The README's test command runs on three workers (pytest-xdist); the tests that start a
server, nginx or Chromium share one of them, and they, the browser tests and the sweeps are
``slow`` (tests/support/groups.py, applied by tests/conftest.py)."""

from __future__ import annotations

import inspect
import os

import pytest
from support.groups import KATEX_ONLY_FILES, SERVER_FILES, SLOW_FOLDERS, runs_servers
from support.paths import TESTS


def _group(item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return (mark.args[0] if mark.args else mark.kwargs.get("name")) if mark else None


def test_the_suite_runs_on_parallel_workers_under_ci(request):
    """`.ci/run` runs the README's command: with pyproject's addopts this test runs in an
    xdist worker, not in the controlling process."""
    if not os.environ.get("CI") and not hasattr(request.config, "workerinput"):
        pytest.skip("run with -p no:xdist or -n 0 (outside CI)")
    assert hasattr(request.config, "workerinput"), "pytest-xdist is not distributing the suite"
    assert request.config.workerinput["workercount"] >= 2 or (os.cpu_count() or 1) < 2


def test_every_test_that_starts_a_server_or_a_browser_is_in_the_servers_group(request):
    if not request.config.pluginmanager.hasplugin("xdist"):
        pytest.skip("pytest-xdist not loaded (-p no:xdist)")
    items = request.session.items
    starts = [item for item in items if runs_servers(item)]
    browser = [item for item in items if item.get_closest_marker("browser")]
    names = {item.path.name for item in items}
    if names >= {path.name for path in TESTS.rglob("test_*.py")}:  # whole suite
        assert len(browser) >= 50, len(browser)  # about 100 browser tests
        assert SERVER_FILES <= names  # each listed file exists
    assert set(browser) <= set(starts)
    katex = [item for item in starts if item.path.name in KATEX_ONLY_FILES]
    grouped = [item for item in starts if item not in set(katex)]
    assert all(_group(item) == "servers" for item in grouped)
    assert all(_group(item) is None for item in items if item not in set(grouped))
    # Every test whose own code starts a process is grouped (this file only names them).
    for item in items:
        source = _source(item) if item.path.name != "test_parallel.py" else ""
        if "start_server(" in source or "Popen(" in source:
            assert runs_servers(item), item.nodeid


def _source(item) -> str:
    function = getattr(item, "function", None)
    return inspect.getsource(function) if function is not None else ""


def test_browser_server_and_sweep_tests_are_slow_and_no_other(request):
    """``-m "not slow"`` leaves out the tests under tests/browser/ and tests/sweeps/, those
    that start a server or a browser, and the sweeps marked ``@pytest.mark.slow`` in a
    page's own file (every tab at its extremes, every step); nothing else."""
    items = request.session.items
    for item in items:
        grouped = runs_servers(item) or any(item.path.is_relative_to(f) for f in SLOW_FOLDERS)
        own = getattr(getattr(item, "function", None), "pytestmark", [])
        marked = any(m.name == "slow" for m in own)
        assert (item.get_closest_marker("slow") is not None) == (grouped or marked), item.nodeid
    if {item.path.name for item in items} >= {path.name for path in TESTS.rglob("test_*.py")}:
        slow = {item.path.parent.name for item in items if item.get_closest_marker("slow")}
        assert {"browser", "sweeps"} <= slow  # the whole suite has both folders' tests
