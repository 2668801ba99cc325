"""A Streamlit server of the app on loopback, started and stopped by tests and benches:
``start_server`` waits for the health check of its own process (not another server that
took the port first)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .paths import APP, ROOT


def free_port() -> int:
    """A TCP port free on loopback now (another process may take it before us)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A started server: its port, process and base URL."""

    def __init__(self, port: int, process: subprocess.Popen):
        self.port = port
        self.process = process
        self.url = f"http://127.0.0.1:{port}"


def start_server(port: int | None = None, extra_env: dict | None = None) -> Server:
    """Start ``streamlit run app.py`` on loopback and wait for its health check.

    A free port is only free when it is picked: another process (say a second test run's
    server) may bind it first. Then the health check would be answered by that server
    while ours fails to bind and exits, so the check only counts once our own process
    listens on the port; without an explicit ``port`` a new one is tried.
    """
    for _attempt in range(3):
        chosen = port or free_port()
        server = _start_once(chosen, extra_env)
        if server is not None:
            return server
        if port:
            break
    raise RuntimeError(f"streamlit exited before its health check answered (port {chosen})")


def _start_once(port: int, extra_env: dict | None) -> Server | None:
    env = {**os.environ, **(extra_env or {})}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(APP),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return Server(port, process) if answers(process, port) else None
    except TimeoutError:
        process.kill()
        raise RuntimeError("streamlit did not start within 60 s") from None


def answers(process: subprocess.Popen, port: int, timeout: float = 60) -> bool:
    """Wait until the Streamlit server ``process`` answers its health check on ``port``:
    True then, False if the process exited first (it could not bind the port, or
    crashed); ``TimeoutError`` after ``timeout`` seconds. An answer counts only once
    ``process`` itself listens on the port, not another server that holds it."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200 and listens(process.pid, port):
                    return True
        except OSError:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"no health answer on port {port} within {timeout:g} s")


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` has a listening TCP socket on ``port`` (Linux ``/proc``;
    elsewhere assumed)."""
    fds = Path(f"/proc/{pid}/fd")
    if not Path("/proc/net/tcp").exists():
        return True
    inodes = set()
    for fd in fds.iterdir() if fds.exists() else ():
        try:
            link = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if link.startswith("socket:["):
            inodes.add(link[len("socket:[") : -1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()  # sl local remote state ... uid timeout inode
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port and inode in inodes:
                return True
    return False


def stop_server(server: Server) -> None:
    """Terminate ``server`` (kill it after 10 s)."""
    server.process.terminate()
    try:
        server.process.wait(10)
    except subprocess.TimeoutExpired:
        server.process.kill()
