"""The repository's folders as the tests see them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
PAGES = sorted((ROOT / "pages").glob("*.py"))
TESTS = ROOT / "tests"
# Screenshots of failed browser tests and other test output.
ARTIFACTS = ROOT / "test-artifacts"
