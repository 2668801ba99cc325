"""The protocol-level load client (bench/serve_load.py) still speaks this Streamlit.

A short run against a real server: if a Streamlit upgrade changes the websocket
protocol the bench relies on, these fail instead of the bench silently measuring nothing.
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest
from support.paths import ROOT
from support.server import start_server, stop_server

sys.path.insert(0, str(ROOT / "bench"))
import serve_load


@pytest.fixture(scope="module")
def app_server():
    srv = start_server()
    yield srv
    stop_server(srv)


def run_async(coroutine):
    """``asyncio.run`` in a thread of its own: Playwright's sync API (the browser tests
    earlier in the same pytest process) leaves an event loop running in the main thread,
    where ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def short_run(server, scenario: str, views=None, sessions: int = 3) -> dict:
    args = SimpleNamespace(duration=5.0, warmup=2.0, think=0.5, step_every=2.0)
    return run_async(
        serve_load.run_level(
            server.url, sessions, scenario, args, [server.process.pid], 1, views_list=views
        )
    )


def test_installed_streamlit_has_the_messages_the_bench_uses():
    serve_load.check_protocol()


def test_protocol_check_names_a_missing_field(monkeypatch):
    monkeypatch.setitem(serve_load.REQUIRED, "ClientState", ("query_string", "no_such_field"))
    with pytest.raises(SystemExit, match=r"ClientState\.no_such_field"):
        serve_load.check_protocol()


def test_workshop_sessions_complete_reruns_without_errors(app_server):
    # The menu pages' first views (the story's steps are tested by their own page tests).
    row = short_run(app_server, "workshop", views=serve_load.page_views())
    assert row["reruns"] > 0, row
    assert row["errors"] == 0, row["error_samples"]
    assert row["cpu_ms_per_rerun"] > 0, row


def test_dashboard_sessions_complete_reruns_without_errors(app_server):
    row = short_run(app_server, "dashboard")
    assert row["reruns"] > 0, row
    assert row["errors"] == 0, row["error_samples"]


def test_a_page_that_does_not_exist_counts_as_an_error(app_server):
    row = short_run(app_server, "workshop", views=[serve_load.View("No_such_page", "")], sessions=1)
    assert row["reruns"] > 0, row
    assert row["errors"] >= row["reruns"], row  # every rerun, warm-up ones too
    assert "page not found" in row["error_samples"][0]


def test_an_exception_element_counts_as_an_error():
    # The app has no page that raises on purpose: the client reads a recorded pair of
    # messages (an exception element, then script_finished) as a server would send them.
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    class FakeSocket:
        def __init__(self):
            exc = ForwardMsg()
            exc.delta.new_element.exception.type = "ValueError"
            exc.delta.new_element.exception.message = "boom"
            done = ForwardMsg()
            done.script_finished = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_SUCCESSFULLY")
            self.queue = [exc.SerializeToString(), done.SerializeToString()]

        async def send(self, data):
            pass

        async def recv(self):
            return self.queue.pop(0)

    problem = run_async(serve_load.rerun(FakeSocket(), serve_load.View("Heatmap", "")))
    assert problem is not None and "ValueError" in problem


def test_the_presenter_moves_a_setting_on_any_menu_page():
    # --page: each menu page's first tab at its defaults, then one setting its control
    # offers at the next stops above the default (issue #32); the story: its steps.
    from ui.shared import menu

    for entry in menu.PAGES:
        name = entry.url_path.strip("/") or "home"
        views = serve_load.presenter_views(name)
        assert {v.page for v in views} == {entry.url_path.lstrip("/")}, name
        if entry.name == "story":
            assert views == serve_load.workshop_views()
            continue
        assert len(views) == serve_load.PRESENTER_STOPS, name
        assert len({v.query for v in views}) == len(views), name  # three settings in turn
    heatmap = serve_load.presenter_views("Heatmap")
    assert [v.query for v in heatmap] == [
        "hm_tab=Table",
        "hm_tab=Table&seq_len=64",
        "hm_tab=Table&seq_len=96",
    ]
    with pytest.raises(SystemExit, match="no menu page"):
        serve_load.presenter_views("No_such_page")


def test_a_session_keeps_large_messages_as_the_browser_does(app_server):
    """The second rerun of a view gets its large chart (RoPE's 468 kB score map) as a
    reference to the copy the session kept, as a browser's message cache does."""
    from websockets.asyncio.client import connect

    view = serve_load.View("RoPE", "")

    async def twice():
        url = app_server.url.replace("http", "ws", 1) + "/_stcore/stream"
        async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
            cache = serve_load.MessageCache()
            first = await serve_load.rerun(ws, view, cache)
            kept, references = cache.hashes(), cache.references
            second = await serve_load.rerun(ws, view, cache)
            return first, second, kept, references, cache.references

    first, second, kept, before, after = run_async(twice())
    assert first is None and second is None
    assert kept and before == 0 and after >= 1


def test_the_message_cache_drops_what_it_has_not_used_and_refuses_unknown_references():
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    cache = serve_load.MessageCache(max_age=2)
    big = ForwardMsg(hash="h1")
    big.metadata.cacheable = True
    assert cache.take(big) is None and cache.hashes() == ["h1"]
    for _ in range(2):
        cache.finished()
    assert cache.hashes() == ["h1"]  # two runs old: kept
    cache.finished()
    assert cache.hashes() == []  # three: dropped, as the front end does
    assert "does not have" in cache.take(ForwardMsg(ref_hash="h1"))
