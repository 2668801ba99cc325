"""The browser tests' server helper: a port taken by someone else is noticed at once."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


@pytest.fixture
def other_server_port():
    """A loopback port held by another server that answers every GET with 200 "ok",
    as a second test run's Streamlit server would answer the health check."""

    class Ok(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Ok)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_health_check_answered_by_another_server_does_not_count(other_server_port):
    # Before, the other server's 200 made start_server return at once, and the tests
    # then talked to whatever held the port (and timed out when it went away).
    with pytest.raises(RuntimeError, match="exited before its health check"):
        start_server(other_server_port)


def test_a_picked_port_held_by_another_server_is_replaced(other_server_port, monkeypatch):
    picks = iter([other_server_port])
    monkeypatch.setattr(conftest, "free_port", lambda: next(picks, None) or _free())
    server = start_server()
    try:
        assert server.port != other_server_port
        assert conftest.listens(server.process.pid, server.port)
    finally:
        stop_server(server)


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
