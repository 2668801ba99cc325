"""A copy of parts of the repository, for tests that plant a change and watch a check
fail on it (house contracts, the worked example, the first-chart budget, presenter type)."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from .paths import ROOT

# What a page needs to run from a copy: entry scripts, code, theme, and the tests' library.
APP = ("app.py", "pages", "ui", "posenc", ".streamlit", "assets", "tests")


def copy_tree(dest: Path, names: Iterable[str] = APP) -> Path:
    """Copy ``names`` (files or folders at the repository root; missing ones are skipped)
    into ``dest``, without ``__pycache__``; return ``dest``."""
    for name in names:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy(src, dest / name)
    return dest


def run_in(copy: Path, script: str, timeout: float = 600):
    """Run ``script`` with Python in the copy (only the copy on the path), and return the
    JSON of the last line it prints; fails with its stderr if it exits non-zero."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=copy, env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
