"""ui.shared.streamlit_internals: every Streamlit internal the app relies on still exists,
with the kind it had (issue 30). A Streamlit upgrade that renames or moves one fails
here, by name, instead of silently turning off the figure cache or the upload sweep."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from types import SimpleNamespace

import pytest
import streamlit

from ui.shared import streamlit_internals as internals


def resolve(dotted: str):
    """``(owner, name, value)`` of ``dotted``: the longest importable module prefix, then
    attributes; ``value`` is None when the last name is set in ``__init__`` only."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:-1]:
            owner = getattr(owner, name)
        return owner, parts[-1], getattr(owner, parts[-1], None)
    raise ImportError(dotted)


def is_kind(owner, name: str, value, kind: str) -> bool:
    if kind == "function":
        return inspect.isfunction(value)
    if kind == "method":
        return callable(value) and (inspect.isfunction(value) or inspect.ismethod(value))
    if kind == "property":
        return isinstance(inspect.getattr_static(owner, name, None), property)
    if kind == "class":
        return inspect.isclass(value)
    if kind == "exception":
        return inspect.isclass(value) and issubclass(value, Exception)
    if kind == "field":  # of a dataclass or a NamedTuple
        fields = getattr(owner, "_fields", None) or [
            f.name for f in dataclasses.fields(owner) if dataclasses.is_dataclass(owner)
        ]
        return name in fields
    if kind == "attribute":  # an instance attribute, set in __init__
        return inspect.isclass(owner) and name in owner.__init__.__code__.co_names
    raise ValueError(kind)


@pytest.mark.parametrize(("dotted", "kind"), internals.USED, ids=[d for d, _ in internals.USED])
def test_each_internal_used_exists_with_its_kind(dotted, kind):
    owner, name, value = resolve(dotted)
    assert is_kind(owner, name, value, kind), (
        f"{dotted} is no longer a {kind} in streamlit {streamlit.__version__} (checked with "
        f"{internals.CHECKED_WITH}): update ui/shared/streamlit_internals.py"
    )


def test_every_streamlit_name_the_module_imports_is_listed():
    tree = ast.parse(inspect.getsource(internals))
    imported = {
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module.startswith("streamlit.")
        for alias in node.names
    }
    listed = {dotted for dotted, _ in internals.USED}
    assert all(any(d.startswith(name) for d in listed) for name in imported), imported


def test_a_rename_is_caught():
    """The check itself: a name Streamlit does not have fails."""
    owner, name, value = resolve("streamlit.runtime.runtime.Runtime._session_manager")
    assert not is_kind(owner, name, value, "attribute")
    owner, name, value = resolve("streamlit.runtime.media_file_manager.MediaFileManager.remove")
    assert not is_kind(owner, name, value, "method")


def test_without_a_server_there_is_nothing_to_sweep():
    assert internals.server_runtime() is None
    assert internals.upload_sessions() == []
    assert internals.alive_sessions() is None
    internals.sweep_media_files()  # does nothing, raises nothing


def test_sessions_and_their_uploads_are_read_from_the_runtime(monkeypatch):
    """The shapes ``ui.shared.learned`` relies on, on Streamlit's own classes."""
    from streamlit.runtime.session_manager import SessionInfo

    uploads = internals.MemoryUploadedFileManager("/_stcore/upload_file")
    for session_id in ("a", "b"):
        rec = internals.UploadedFileRec(f"f-{session_id}", "e.npy", "application/x", b"x")
        uploads.add_file(session_id, rec)
    listed = [SessionInfo(client=None, session=SimpleNamespace(id="a"))]
    sessions = SimpleNamespace(list_sessions=lambda: listed)
    rt = SimpleNamespace(uploaded_file_mgr=uploads, _session_mgr=sessions)
    monkeypatch.setattr(internals, "server_runtime", lambda: rt)
    assert sorted(internals.upload_sessions()) == ["a", "b"]
    assert internals.alive_sessions() == {"a"}
    internals.drop_session_uploads("b")
    assert internals.upload_sessions() == ["a"]


def test_cached_data_bytes_counts_what_st_cache_data_holds():
    before = internals.cached_data_bytes()

    @streamlit.cache_data
    def held(n: int) -> bytes:
        return b"x" * n

    held(200_000)
    assert internals.cached_data_bytes() - before >= 200_000
    held.clear()


THEME_SECTIONS = (
    "theme",
    "theme.light",
    "theme.dark",
    "theme.sidebar",
    "theme.light.sidebar",
    "theme.dark.sidebar",
)


def _parts(populate_theme, populate_config) -> list[bytes]:
    """The theme and config parts of a ``new_session`` message, as bytes."""
    from streamlit.proto.NewSession_pb2 import Config, CustomThemeConfig

    parts = []
    for section in THEME_SECTIONS:
        msg = CustomThemeConfig()
        populate_theme(msg, section)
        parts.append(msg.SerializeToString())
    msg = Config()
    populate_config(msg)
    return [*parts, msg.SerializeToString()]


@pytest.fixture
def memoized():
    """The memo installed, and the functions Streamlit had before, put back after."""
    from streamlit.runtime import app_session

    before = app_session._populate_theme_msg, app_session._populate_config_msg
    assert internals.memoize_session_config()
    yield app_session
    app_session._populate_theme_msg, app_session._populate_config_msg = before


def test_the_memo_gives_the_bytes_streamlit_builds(memoized):
    """Issue #32: the theme and config parts of every rerun's new_session message, built
    once: byte for byte what Streamlit builds, on the first call and on later ones."""
    theme, settings = memoized._populate_theme_msg, memoized._populate_config_msg
    built = _parts(theme.original, settings.original)
    assert b"#b2182b" in b"".join(built)  # the app's theme (.streamlit/config.toml) is in it
    assert _parts(theme, settings) == built
    assert _parts(theme, settings) == built
    assert internals.memoize_session_config()  # a second install changes nothing
    assert memoized._populate_theme_msg is theme


def test_the_memo_follows_a_new_config_and_the_options_a_script_sets(memoized):
    from streamlit import config

    theme, settings = memoized._populate_theme_msg, memoized._populate_config_msg
    first = _parts(theme, settings)
    try:  # the config parsed again (a file changed, or flags): a new options dict
        config.get_config_options(True, {"theme.primaryColor": "#123456"})
        changed = _parts(theme, settings)
        assert b"#123456" in changed[0] and changed == _parts(theme.original, settings.original)
        toolbar = config.get_option("client.toolbarMode")
        config.set_option("client.toolbarMode", "minimal")  # st.set_option, in a script
        try:
            assert _parts(theme, settings)[-1] == _parts(theme.original, settings.original)[-1]
            assert _parts(theme, settings)[-1] != changed[-1]
        finally:
            config.set_option("client.toolbarMode", toolbar)
    finally:
        config.get_config_options(force_reparse=True)
    assert _parts(theme, settings) == first


def test_a_held_value_lasts_from_hold_to_the_end_of_the_run():
    internals.begin_run()
    assert internals.held("lang") is None and internals.held("lang", "en") == "en"
    internals.hold("lang", "zh")
    assert internals.held("lang") == "zh"
    internals.end_run()  # the next run's callbacks read the session
    assert internals.held("lang") is None
    internals.hold("present", True)
    internals.begin_run()  # a run that starts forgets the last one's
    assert internals.held("present") is None


def test_held_or_read_reads_once_a_run_even_a_none():
    reads = []

    def read():
        reads.append(1)
        return None  # a value held as None is still held

    internals.begin_run()
    assert internals.held_or_read("unfold", read) is None
    assert internals.held_or_read("unfold", read) is None
    assert len(reads) == 1
    internals.begin_run()
    internals.held_or_read("unfold", read)
    assert len(reads) == 2  # a new run reads again
    internals.end_run()


def test_a_held_value_is_this_threads_and_this_runs_only(monkeypatch):
    import threading

    internals.begin_run()
    internals.hold("lang", "zh")
    seen = []
    thread = threading.Thread(target=lambda: seen.append(internals.held("lang")))
    thread.start()
    thread.join()
    assert seen == [None]  # another session's run
    monkeypatch.setattr(internals, "get_script_run_ctx", lambda **_: object())
    assert internals.held("lang") is None  # the same thread, another run's context
    internals.end_run()


def test_the_language_read_in_a_run_follows_the_switch():
    """After a switch, the page is drawn in the new language (i18n.lang holds it)."""
    from tests.support import apptest

    at = apptest.run_page("1_Heatmap.py", unfold=False)
    assert at.title[0].value.startswith("The positional")
    at.sidebar.radio[0].set_value("zh").run()
    assert not at.exception
    assert not at.title[0].value.startswith("The positional")
    at.sidebar.radio[0].set_value("en").run()
    assert at.title[0].value.startswith("The positional")


# --- script events handed to the event loop in batches (issue #32) ---------------------


def _run_events(batched: bool, *, failing: bool = False, run=None) -> dict:
    """A real ``AppSession`` on an event loop, sent one run's events from a script thread
    while the loop is busy (as under a room's load): what its browser queue holds then,
    how many callbacks the loop was given, and what the loop's exception handler saw."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.script_data import ScriptData
    from streamlit.runtime.scriptrunner import RunDescriptor, ScriptRunnerEvent
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    app = Path(__file__).resolve().parents[2] / "app.py"
    run = run or RunDescriptor.create()  # the same run's ids when two results are compared
    handler = AppSession._on_scriptrunner_event
    handler = handler if batched else getattr(handler, "original", handler)
    seen = {"wakes": 0, "callbacks": 0, "errors": [], "run": run}

    def delta(path: tuple[int, ...], text: str) -> ForwardMsg:
        msg = ForwardMsg()
        msg.metadata.delta_path[:] = path
        msg.delta.new_element.markdown.body = text
        return msg

    async def main():
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: seen["errors"].append(context))
        session = AppSession(
            ScriptData(str(app)),
            MemoryUploadedFileManager("/upload"),
            ScriptCache(),
            lambda: seen.__setitem__("wakes", seen["wakes"] + 1),
            {},
            session_id_override="batched",
        )
        scheduled = session._call_soon_on_event_loop

        def counted(callback):
            seen["callbacks"] += 1
            scheduled(callback)

        session._call_soon_on_event_loop = counted
        runner, stale = object(), object()
        session._scriptrunner = runner
        if failing:  # the run's first event cannot be handled
            session._create_new_session_message = lambda *a, **k: 1 / 0

        def script():  # what a script thread sends in one run
            def send(*args, **kwargs):
                handler(session, *args, **kwargs)

            events = ScriptRunnerEvent
            send(runner, events.SCRIPT_STARTED, page_script_hash="h", run_descriptor=run)
            for i in range(40):
                send(runner, events.ENQUEUE_FORWARD_MSG, forward_msg=delta((0, i), f"{i}"))
            send(stale, events.ENQUEUE_FORWARD_MSG, forward_msg=delta((0, 99), "old"))
            send(runner, events.ENQUEUE_FORWARD_MSG, forward_msg=delta((0, 3), "3b"))
            send(runner, events.SCRIPT_STOPPED_WITH_SUCCESS, run_descriptor=run)

        thread = threading.Thread(target=script)
        thread.start()
        thread.join()  # the loop is held until the thread has sent everything
        for _ in range(5):
            await asyncio.sleep(0)
        seen["queue"] = [m.SerializeToString() for m in session.flush_browser_queue()]
        session._scriptrunner = None
        session.shutdown()

    # A loop of its own, in a thread of its own: Playwright's sync API (browser tests
    # earlier in the same worker) leaves a loop running in the main thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, main()).result()
    return seen


def test_a_batch_puts_in_the_browser_queue_what_streamlit_would():
    """Issue #32: the same messages, byte for byte and in the same order (the stale
    runner's message dropped, a re-sent path composed), as Streamlit's handler, event by
    event; one callback for the run instead of one an event, and one wake of the runtime
    for the run's element messages instead of one a message."""
    assert internals.batch_script_events()
    alone = _run_events(False)
    batched = _run_events(True, run=alone["run"])
    assert len(alone["queue"]) >= 42  # new_session, status, 40 deltas, script_finished...
    assert batched["queue"] == alone["queue"]
    assert not alone["errors"] and not batched["errors"]
    assert alone["callbacks"] == 44 and batched["callbacks"] == 1
    # Streamlit wakes the runtime once a message; the run's 41 current messages, once.
    assert batched["wakes"] == alone["wakes"] - 41 + 1


def test_an_event_that_fails_is_reported_and_the_batch_goes_on():
    """A failing event's error reaches the loop's exception handler, as a callback's
    error does in Streamlit, and the events after it are still handled."""
    assert internals.batch_script_events()
    alone = _run_events(False, failing=True)
    batched = _run_events(True, failing=True, run=alone["run"])
    assert [type(c["exception"]) for c in batched["errors"]] == [ZeroDivisionError]
    assert [type(c["exception"]) for c in alone["errors"]] == [ZeroDivisionError]
    assert batched["queue"] == alone["queue"] and len(batched["queue"]) >= 41


def test_batching_installs_once():
    from streamlit.runtime.app_session import AppSession

    assert internals.batch_script_events()
    installed = AppSession._on_scriptrunner_event
    assert internals.batch_script_events()
    assert AppSession._on_scriptrunner_event is installed and installed.batched
