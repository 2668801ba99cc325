"""Fixtures and hooks only: the AppTest cache reset, a live server, a browser and its
pages; the xdist ``servers`` group, the ``slow`` mark and the summary of cases tried.
What tests import as a library lives in ``tests/support/`` (never import this file)."""

from __future__ import annotations

import os

import pytest
import streamlit as st
from support.browser import CHROMIUM, CHROMIUM_ARGS, require_browser
from support.counts import CASES, WORDS
from support.groups import in_server_group, is_slow
from support.paths import ARTIFACTS
from support.server import start_server, stop_server

# The script that made the peer values imports torch and transformers, which the
# tests do not need (its doctest collection would import them).
collect_ignore = ["peers/make_peer_values.py", "peers/make_scheme_peer_values.py"]  # need torch


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per core plus one. The servers group spends most of its
    time waiting on a page load, a server start or a timed load run (the whole suite
    kept 1.1 of 2 cores busy with one worker per core), so a third worker fills the gap."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(config, items):
    """``slow``: browser, server and sweep tests (``support.groups.is_slow``); under
    xdist, the tests that start a server or a browser share the ``servers`` group."""
    xdist = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)
        if xdist and in_server_group(item):
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


@pytest.fixture(scope="session")
def server():
    """One Streamlit server for the whole browser session."""
    srv = start_server()
    yield srv
    stop_server(srv)


@pytest.fixture(scope="session")
def browser():
    require_browser()
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
