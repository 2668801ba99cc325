"""Streamlit's internals, reached from this module only (issue 30).

Streamlit's public API (``st.*``) is stable across releases; what lives under
``streamlit.runtime`` and the private attributes of its objects are not, and a rename
there would not fail loudly: the app would stop caching figures or freeing uploads.
So every use of them is here, listed in :data:`USED`, and
``tests/shared/test_streamlit_internals.py`` checks that each name still exists with the
kind listed (``tests/house/test_streamlit_internals_once.py``: no other module of
``ui/``, ``tests/`` or ``bench/`` imports ``streamlit.runtime`` or touches these private
attributes). Checked with Streamlit :data:`CHECKED_WITH`.

What is used, and why:

- ``streamlit.runtime.scriptrunner.get_script_run_ctx`` (function): whether code runs in
  a script run (a session), where ``st.cache_data`` and ``st.session_state`` work
  (:func:`in_script_run`; ``ui.shared.figure_cache``, ``ui.shared.learned``), and which
  run a value :func:`hold` kept belongs to (issue #32).
- ``streamlit.runtime.exists`` and ``get_instance`` (functions): the server's
  ``Runtime``; there is none under AppTest or in a bench (:func:`server_runtime`).
- ``Runtime.media_file_mgr`` (property) and ``MediaFileManager.remove_orphaned_files``
  (method): a built download stays in the media storage until two script runs end
  anywhere; ``ui.shared.export`` sweeps it sooner (:func:`sweep_media_files`).
- ``Runtime.uploaded_file_mgr`` (property), ``MemoryUploadedFileManager.file_storage``
  (attribute: session id -> files) and ``remove_session_files`` (method),
  ``Runtime._session_mgr`` (private attribute), ``SessionManager.list_sessions``
  (method), ``SessionInfo.session`` (field) and ``AppSession.id`` (attribute): a closed
  tab's session expires without shutting down, and its uploads stayed for the server's
  lifetime; ``ui.shared.learned`` drops the uploads of sessions no longer listed
  (:func:`upload_sessions`, :func:`alive_sessions`, :func:`drop_session_uploads`).
- ``streamlit.runtime.caching.cache_data_api._data_caches.get_stats`` (private) and
  ``streamlit.runtime.stats.CacheStat.byte_length`` (field): the bytes ``st.cache_data``
  holds (:func:`cached_data_bytes`; a test checks that no process-wide cache keeps an
  upload).
- ``MediaFileManager``, ``MemoryMediaFileStorage`` (and its private ``_files_by_id``),
  ``MemoryUploadedFileManager``, ``UploadedFileRec`` (classes): the tests build the
  stores a server has, to test the sweeps above without a server
  (:func:`stored_media_files`).
- ``SessionStateProxy.__getitem__`` (method of the class ``st.session_state`` is): the
  tests count the Session State reads of a run (each ~10 us; issue #32).
- ``streamlit.runtime.app_session._populate_theme_msg`` and ``_populate_config_msg``
  (module functions) and ``streamlit.config.get_config_options`` (function): every rerun
  of every session sends a ``new_session`` message whose theme and config parts are
  rebuilt by scanning all ~200 config options six times, ~1 ms of the server's 10-20 ms a
  rerun (issue #32). :func:`memoize_session_config` builds each part once per parsed
  config and copies it in.
- ``AppSession._on_scriptrunner_event`` (method, replaced), its
  ``_handle_scriptrunner_event_on_event_loop`` and ``_call_soon_on_event_loop`` (methods),
  its ``_event_loop``, ``_scriptrunner``, ``_browser_queue`` and
  ``_message_enqueued_callback`` (attributes), ``ForwardMsgQueue.enqueue`` (method) and
  ``ScriptRunnerEvent`` (class): Streamlit hands each message of a script run to the event
  loop as a callback of its own, ~16 % of the server's time under a room of 200 (issue
  #32). :func:`batch_script_events` hands them over in batches, in the same order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from streamlit import runtime
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state.session_state_proxy import SessionStateProxy
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

__all__ = [
    "CHECKED_WITH",
    "USED",
    "MediaFileManager",
    "MemoryMediaFileStorage",
    "MemoryUploadedFileManager",
    "SessionStateProxy",
    "UploadedFileRec",
    "alive_sessions",
    "batch_script_events",
    "cached_data_bytes",
    "drop_session_uploads",
    "held_or_read",
    "in_script_run",
    "memoize_session_config",
    "server_runtime",
    "stored_media_files",
    "sweep_media_files",
    "upload_sessions",
]

CHECKED_WITH = "1.67.0"

# Every internal name used here, with its kind (tests/shared/test_streamlit_internals.py
# resolves each in the installed Streamlit). Kinds: function, method, property,
# exception, class, field (of a dataclass or NamedTuple), attribute (set in __init__).
USED = (
    ("streamlit.runtime.state.session_state_proxy.SessionStateProxy.__getitem__", "method"),
    ("streamlit.runtime.scriptrunner.get_script_run_ctx", "function"),
    ("streamlit.runtime.exists", "function"),
    ("streamlit.runtime.get_instance", "function"),
    ("streamlit.runtime.runtime.Runtime.media_file_mgr", "property"),
    ("streamlit.runtime.media_file_manager.MediaFileManager.remove_orphaned_files", "method"),
    ("streamlit.runtime.runtime.Runtime.uploaded_file_mgr", "property"),
    (
        "streamlit.runtime.memory_uploaded_file_manager.MemoryUploadedFileManager.file_storage",
        "attribute",
    ),
    (
        "streamlit.runtime.memory_uploaded_file_manager.MemoryUploadedFileManager"
        ".remove_session_files",
        "method",
    ),
    ("streamlit.runtime.runtime.Runtime._session_mgr", "attribute"),
    ("streamlit.runtime.session_manager.SessionManager.list_sessions", "method"),
    ("streamlit.runtime.session_manager.SessionInfo.session", "field"),
    ("streamlit.runtime.app_session.AppSession.id", "attribute"),
    ("streamlit.runtime.caching.cache_data_api._data_caches.get_stats", "method"),
    ("streamlit.runtime.stats.CacheStat.byte_length", "field"),
    ("streamlit.runtime.media_file_manager.MediaFileManager", "class"),
    ("streamlit.runtime.memory_media_file_storage.MemoryMediaFileStorage", "class"),
    (
        "streamlit.runtime.memory_media_file_storage.MemoryMediaFileStorage._files_by_id",
        "attribute",
    ),
    ("streamlit.runtime.memory_uploaded_file_manager.MemoryUploadedFileManager", "class"),
    ("streamlit.runtime.uploaded_file_manager.UploadedFileRec", "class"),
    ("streamlit.runtime.app_session._populate_theme_msg", "function"),
    ("streamlit.runtime.app_session._populate_config_msg", "function"),
    ("streamlit.config.get_config_options", "function"),
    ("streamlit.runtime.app_session.AppSession._on_scriptrunner_event", "method"),
    (
        "streamlit.runtime.app_session.AppSession._handle_scriptrunner_event_on_event_loop",
        "method",
    ),
    ("streamlit.runtime.app_session.AppSession._call_soon_on_event_loop", "method"),
    ("streamlit.runtime.app_session.AppSession._event_loop", "attribute"),
    ("streamlit.runtime.app_session.AppSession._scriptrunner", "attribute"),
    ("streamlit.runtime.app_session.AppSession._browser_queue", "attribute"),
    ("streamlit.runtime.app_session.AppSession._message_enqueued_callback", "attribute"),
    ("streamlit.runtime.forward_msg_queue.ForwardMsgQueue.enqueue", "method"),
    ("streamlit.runtime.scriptrunner.script_runner.ScriptRunnerEvent", "class"),
)


_run = threading.local()  # this thread's script run and what it holds (:func:`hold`)


def begin_run() -> None:
    """Forget what :func:`hold` kept for this thread's last run (``setup_page``, first)."""
    _run.held = (get_script_run_ctx(suppress_warning=True), {})


def end_run() -> None:
    """Drop what :func:`hold` kept (a page's run ends: ``ui.shared.turns``), so that the
    callbacks that start the next run read the session."""
    _run.held = None


def hold(name: str, value) -> None:
    """Keep ``value`` as ``name`` for the rest of this script run: a setting read from
    ``st.session_state`` many times a run that cannot change once its widget has run
    (the language: ~70 reads a rerun, ~10 us each, issue #32)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    held = getattr(_run, "held", None)
    if held is None or held[0] is not ctx:
        held = _run.held = (ctx, {})
    held[1][name] = value


def held(name: str, default=None):
    """What :func:`hold` kept as ``name`` in this script run, else ``default``."""
    held = getattr(_run, "held", None)
    if held is None or held[0] is not get_script_run_ctx(suppress_warning=True):
        return default
    return held[1].get(name, default)


_MISSING = object()


def held_or_read(name: str, read: Callable[[], object]):
    """What :func:`hold` kept as ``name`` in this script run; else ``read()``, kept for
    the rest of the run (a Session State value read many times a run, issue #32)."""
    value = held(name, _MISSING)
    if value is _MISSING:
        value = read()
        hold(name, value)
    return value


def in_script_run() -> bool:
    """Whether the caller runs in a script run (a session), not in a bare process."""
    return get_script_run_ctx(suppress_warning=True) is not None


def server_runtime():
    """The server's ``Runtime``, or None (AppTest, a bench, a unit test)."""
    return runtime.get_instance() if runtime.exists() else None


def sweep_media_files() -> None:
    """Let the media storage drop files no session refers to (built downloads)."""
    rt = server_runtime()
    if rt is not None:
        rt.media_file_mgr.remove_orphaned_files()


def upload_sessions() -> list[str]:
    """Ids of the sessions whose uploaded files the server's in-memory store keeps; none
    without a server or with another store."""
    rt = server_runtime()
    stored = getattr(rt.uploaded_file_mgr, "file_storage", None) if rt is not None else None
    return list(stored or ())


def alive_sessions() -> set[str] | None:
    """Ids of the sessions the server still lists (open or kept for a reconnect); None
    when it cannot tell."""
    sessions = getattr(server_runtime(), "_session_mgr", None)
    if sessions is None:
        return None
    return {info.session.id for info in sessions.list_sessions()}


def drop_session_uploads(session_id: str) -> None:
    """Drop the uploaded files kept for session ``session_id``."""
    rt = server_runtime()
    if rt is not None:
        rt.uploaded_file_mgr.remove_session_files(session_id)


def cached_data_bytes() -> int:
    """Bytes held by every ``st.cache_data`` cache of this process."""
    from streamlit.runtime.caching import cache_data_api

    stats = cache_data_api._data_caches.get_stats()
    return sum(stat.byte_length for family in stats.values() for stat in family)


def stored_media_files(storage: MemoryMediaFileStorage) -> int:
    """How many files an in-memory media storage holds."""
    return len(storage._files_by_id)


# The options a script may change at run time (``st.set_option``) that the config part
# reads; the memo of that part is keyed by their values.
_SCRIPTABLE = (
    "client.showErrorDetails",
    "client.toolbarMode",
    "client.disableDataExport",
    "client.showSidebarNavigation",
)


def memoize_session_config() -> bool:
    """Build the theme and config parts of the ``new_session`` message once per parsed
    config (a re-parse gives a new options dict: the memo starts again) and copy them into
    each message: the same bytes as building them (``tests/shared/test_streamlit_internals
    .py``). The config part is keyed by the options a script may set as well. Installs
    once per process; False where the functions are not there (a newer Streamlit)."""
    from streamlit import config
    from streamlit.runtime import app_session

    theme, settings = (
        getattr(app_session, name, None) for name in ("_populate_theme_msg", "_populate_config_msg")
    )
    if theme is None or settings is None:
        return False
    if getattr(theme, "memoized", False):
        return True
    memo: dict = {}

    def copied(key, build, msg) -> None:
        options = config.get_config_options()
        if memo.get("options") is not options:  # held: its id cannot be reused
            memo.clear()
            memo["options"] = options
        blob = memo.get(key)
        if blob is None:
            fresh = type(msg)()
            build(fresh)
            blob = memo[key] = fresh.SerializeToString()
        msg.MergeFromString(blob)

    def memo_theme(msg, section: str = "theme") -> None:
        copied(("theme", section), lambda fresh: theme(fresh, section), msg)

    def memo_config(msg) -> None:
        scriptable = tuple(config.get_option(name) for name in _SCRIPTABLE)
        copied(("config", scriptable), settings, msg)

    memo_theme.memoized = memo_config.memoized = True
    memo_theme.original, memo_config.original = theme, settings
    app_session._populate_theme_msg = memo_theme
    app_session._populate_config_msg = memo_config
    return True


def batch_script_events() -> bool:
    """Hand a session's script events to the event loop in batches (issue #32).

    Streamlit passes every message a script run sends (one per element, 35-60 a rerun)
    from the script's thread to the server's event loop as a callback of its own
    (``call_soon_threadsafe``: a handle, a wake-up write, a turn of the loop), and the
    loop's handler then asks the runtime, again by ``call_soon_threadsafe``, to flush. A
    server profile under a room of 200 put ~16 % of the process's time there (10.8 %
    after, most of it the queueing itself). Here the script's events wait in a queue
    that the loop empties in one callback, in the order they came, and the runtime is
    asked once a batch. A message of the session's current script run goes straight
    into the browser queue, as Streamlit's handler would put it (its other branches
    change nothing for such a message); every other event goes through Streamlit's own
    handler. An error in one event's handling is reported to the loop's exception
    handler, as a callback's error is, and the rest of the batch goes on. Installs once
    per process; False where the names are not there (a newer Streamlit)."""
    from collections import deque

    from streamlit.runtime import app_session
    from streamlit.runtime.scriptrunner import script_runner

    session = getattr(app_session, "AppSession", None)
    original = getattr(session, "_on_scriptrunner_event", None)
    handle = getattr(session, "_handle_scriptrunner_event_on_event_loop", None)
    message = getattr(
        getattr(script_runner, "ScriptRunnerEvent", None), "ENQUEUE_FORWARD_MSG", None
    )
    if original is None or handle is None or message is None:
        return False
    if getattr(original, "batched", False):
        return True

    def drain(self) -> None:  # on the event loop: every event queued so far, in order
        pending = self._batched_events
        self._batched_drain = False  # before the first pop: a later event asks again
        enqueued = False
        try:
            while pending:
                sender, event, fields = pending.popleft()
                try:
                    forward_msg = fields.get("forward_msg")
                    current = sender is self._scriptrunner
                    if event is message and current and forward_msg is not None:
                        self._browser_queue.enqueue(forward_msg)
                        enqueued = True
                    else:
                        handle(self, sender, event, **fields)
                except Exception as exc:  # as asyncio reports a callback's error
                    self._event_loop.call_exception_handler(
                        {"message": "Exception in a script event", "exception": exc}
                    )
        finally:
            if enqueued and self._message_enqueued_callback:
                self._message_enqueued_callback()

    def on_event(self, sender, event, **fields) -> None:  # Streamlit names every field
        pending = self.__dict__.get("_batched_events")
        if pending is None:  # deque.append and popleft are atomic: no lock is needed
            pending = self.__dict__.setdefault("_batched_events", deque())
        pending.append((sender, event, fields))
        if not self.__dict__.get("_batched_drain", False):
            self._batched_drain = True
            self._call_soon_on_event_loop(lambda: drain(self))

    on_event.batched = True
    on_event.original = original
    session._on_scriptrunner_event = on_event
    return True
