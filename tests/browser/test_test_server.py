"""The browser tests' server helper: a port taken by someone else is noticed at once."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import support.server
from support.server import free_port, listens, start_server, stop_server


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


# "taken_port": a silent listener; Streamlit exits when it cannot bind, and without the
# liveness check this waited 60 s and then blamed a slow start. "other_server_port": a
# server answering 200; before, its answer made start_server return at once, and the
# tests then talked to whatever held the port (and timed out when it went away).
HOLDERS = ["taken_port", "other_server_port"]


@pytest.mark.parametrize("holder", HOLDERS)
def test_a_port_held_by_another_program_is_reported_not_used(holder, request):
    with pytest.raises(RuntimeError, match="exited before its health check"):
        start_server(request.getfixturevalue(holder))


@pytest.mark.parametrize("holder", HOLDERS)
def test_a_picked_port_held_by_another_program_is_replaced(holder, request, monkeypatch):
    held = request.getfixturevalue(holder)
    picks, pick = iter([held]), free_port
    monkeypatch.setattr(support.server, "free_port", lambda: next(picks, None) or pick())
    server = start_server()
    try:
        assert server.port != held
        assert listens(server.process.pid, server.port)
    finally:
        stop_server(server)
