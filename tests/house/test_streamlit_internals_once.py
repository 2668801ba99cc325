"""Streamlit's internals are reached through ``ui/shared/streamlit_internals.py`` only
(issue 30): no other module of ``ui/``, no test, bench or tool imports ``streamlit.runtime``
or names the private attributes that module wraps, so a Streamlit upgrade is checked in
one place (``tests/shared/test_streamlit_internals.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THE_MODULE = ROOT / "ui" / "shared" / "streamlit_internals.py"
ITS_TEST = ROOT / "tests" / "shared" / "test_streamlit_internals.py"
# The private attributes (and the one internal store's attribute) the module wraps.
PRIVATE = {
    "_session_mgr",
    "_files_by_id",
    "_data_caches",
    "file_storage",
    "_on_scriptrunner_event",
    "_browser_queue",
}


def reaches(tree: ast.AST) -> list[str]:
    """Where ``tree`` imports ``streamlit.runtime`` or names a wrapped private attribute."""
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [
                f"{line}: import {a.name}"
                for a in node.names
                if a.name.startswith("streamlit.runtime")
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = {a.name for a in node.names}
            if node.module.startswith("streamlit.runtime") or (
                node.module == "streamlit" and "runtime" in names
            ):
                found.append(f"{line}: from {node.module} import {', '.join(sorted(names))}")
        elif isinstance(node, ast.Attribute):
            if node.attr in PRIVATE:
                found.append(f"{line}: .{node.attr}")
            elif node.attr == "runtime" and isinstance(node.value, ast.Name):
                if node.value.id in ("st", "streamlit"):
                    found.append(f"{line}: {node.value.id}.runtime")
        elif isinstance(node, ast.keyword) and node.arg in PRIVATE:
            found.append(f"{line}: {node.arg}=")
        elif isinstance(node, ast.Constant) and node.value in PRIVATE:
            found.append(f"{line}: {node.value!r}")
    return found


def sources() -> list[Path]:
    folders = ("ui", "tests", "bench", "tools", "pages")
    found = [p for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))]
    return [*found, ROOT / "app.py"]


def test_only_the_internals_module_reaches_streamlit_internals():
    offenders = {
        str(path.relative_to(ROOT)): hits
        for path in sources()
        if path not in (THE_MODULE, ITS_TEST, Path(__file__).resolve())
        and (hits := reaches(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert not offenders, offenders


@pytest.mark.parametrize(
    "planted",
    [
        "from streamlit.runtime.scriptrunner import get_script_run_ctx",
        "import streamlit.runtime.caching",
        "from streamlit import runtime",
        "st.runtime.exists()",
        "rt._session_mgr.list_sessions()",
        "getattr(uploads, 'file_storage', None)",
    ],
)
def test_a_planted_reach_is_found(planted):
    assert reaches(ast.parse(planted))
