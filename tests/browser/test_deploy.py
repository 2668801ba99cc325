"""The load balancer config of deploy/ (issue #23): nginx parses it, it keeps a browser
on one replica and passes websockets, and the bench's generated config does too."""

from __future__ import annotations

import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from support.paths import ROOT
from support.server import free_port

sys.path.insert(0, str(ROOT / "bench"))
import serve_load

DEPLOY = ROOT / "deploy"
CONF = DEPLOY / "nginx.conf"


@pytest.fixture(scope="module")
def nginx() -> str:
    found = shutil.which("nginx") or (serve_load.NGINX if Path(serve_load.NGINX).exists() else None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is missing under CI: .ci/run must install it")
        pytest.skip("Debian nginx not installed (apt-get install nginx)")
    return found


def nginx_test(binary: str, conf: Path, prefix: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [binary, "-t", "-p", f"{prefix}/", "-c", str(conf), "-e", "stderr"],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_shipped_config_parses(nginx, tmp_path):
    result = nginx_test(nginx, CONF, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def test_generated_bench_config_parses(nginx, tmp_path):
    conf = tmp_path / "nginx.conf"
    conf.write_text(serve_load.nginx_config([8501, 8502, 8503], free_port()))
    result = nginx_test(nginx, conf, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "include upstream.conf" not in conf.read_text()
    assert conf.read_text().count("server 127.0.0.1:85") == 3


def block(text: str, opening: str) -> str:
    """The body of the block that starts with ``opening`` (braces balanced)."""
    start = text.index(opening)
    depth, i = 0, text.index("{", start)
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1 : j]
    raise ValueError(opening)


def directives(text: str) -> list[str]:
    """Directives without comments, whitespace collapsed."""
    code = re.sub(r"#[^\n]*", "", text)
    return [" ".join(d.split()) for d in code.replace("{", ";").replace("}", ";").split(";")]


def test_upstream_is_sticky_by_cookie():
    text = CONF.read_text()
    upstream = directives(block(text, "upstream posenc"))
    assert "hash $posenc_route consistent" in upstream
    route_map = directives(block(text, "map $cookie_posenc_route $posenc_route"))
    assert '"" $request_id' in route_map and "default $cookie_posenc_route" in route_map
    assert any(
        d.startswith('add_header Set-Cookie "posenc_route=$posenc_route') for d in directives(text)
    )


def test_websocket_upgrade_headers_are_passed():
    location = directives(block(CONF.read_text(), "location /"))
    for needed in (
        "proxy_pass http://posenc",
        "proxy_http_version 1.1",
        "proxy_set_header Upgrade $http_upgrade",
        "proxy_set_header Connection $connection_upgrade",
        "proxy_set_header Host $http_host",
    ):
        assert needed in location, needed


def test_metrics_are_not_public():
    assert directives(block(CONF.read_text(), "location = /_stcore/metrics")) == ["return 404", ""]


def test_compose_mounts_the_same_config_with_the_docker_upstream():
    compose = (DEPLOY / "docker-compose.yml").read_text()
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in compose
    assert "./upstream.docker.conf:/etc/nginx/upstream.conf:ro" in compose
    assert "server app:8501;" in (DEPLOY / "upstream.docker.conf").read_text()
    assert "dockerfile: Dockerfile" in compose and (ROOT / "Dockerfile").exists()


class _Named(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = self.server.name.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_browser_stays_on_one_replica_and_the_room_spreads(nginx, tmp_path):
    """Two stand-in replicas that answer their own name, nginx in front: one cookie always
    reaches the same replica, the cookie nginx hands out is the one it routes by, and 40
    browsers spread over both."""
    replicas = []
    for name in ("a", "b"):
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Named)
        srv.name = name
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        replicas.append(srv)
    listen = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(serve_load.nginx_config([s.server_address[1] for s in replicas], listen))
    proc = subprocess.Popen(
        [nginx, "-p", f"{tmp_path}/", "-c", str(conf), "-e", "stderr", "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{listen}/"
        serve_load.wait_healthy(url.rstrip("/"), [proc], timeout=20)

        def get(cookie=None):
            request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
            with urllib.request.urlopen(request, timeout=5) as r:
                return r.read().decode(), r.headers.get("Set-Cookie", "")

        first, set_cookie = get()
        cookie = set_cookie.split(";")[0]
        assert cookie.startswith("posenc_route=") and len(cookie) > len("posenc_route=")
        assert {get(cookie)[0] for _ in range(10)} == {first}
        assert {get(f"posenc_route=browser{i}")[0] for i in range(40)} == {"a", "b"}
    finally:
        proc.terminate()
        proc.wait(10)
        for srv in replicas:
            srv.shutdown()
