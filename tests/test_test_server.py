"""The browser tests' server helper: a port taken by someone else is noticed at once."""

from __future__ import annotations

import socket

import conftest
import pytest
from conftest import start_server, stop_server


@pytest.fixture
def taken_port():
    """A loopback port that accepts connections and never answers (another program)."""
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        yield blocker.getsockname()[1]


def test_a_taken_port_is_reported_as_such_not_waited_on(taken_port):
    # Streamlit exits when it cannot bind; without the liveness check this waited 60 s
    # on the silent listener and then blamed a slow start.
    with pytest.raises(RuntimeError, match="exited before its health check"):
        start_server(taken_port)


def test_a_picked_port_taken_before_streamlit_binds_it_is_replaced(taken_port, monkeypatch):
    picks = iter([taken_port])
    monkeypatch.setattr(conftest, "free_port", lambda: next(picks, None) or _free())
    server = start_server()
    try:
        assert server.port != taken_port
        assert server.process.poll() is None
    finally:
        stop_server(server)


def _free() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
