"""The offline deck (issue #32) built once per test session: both files of
``tools/export_deck.py``, with go-deeper links to :data:`APP_URL`."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from .paths import ROOT

APP_URL = "https://posenc.example.org/app"


def export_module():
    """``tools/export_deck.py`` as a module (``tools/`` is not a package)."""
    if str(ROOT / "tools") not in sys.path:
        sys.path.insert(0, str(ROOT / "tools"))
    import export_deck

    return export_deck


@pytest.fixture(scope="session")
def decks(tmp_path_factory) -> dict:
    """``{"en": path, "zh": path, "seconds": export time}``: the two files, built once."""
    out = tmp_path_factory.mktemp("deck")
    start = time.perf_counter()
    written = export_module().export(out, app_url=APP_URL)
    paths = {Path(path).name.removeprefix("story-").removesuffix(".html"): Path(path)
             for path, _, _ in written}  # fmt: skip
    return {**paths, "seconds": time.perf_counter() - start}
