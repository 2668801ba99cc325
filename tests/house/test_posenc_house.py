"""The house rules of posenc (issue 25 §1), checked on the source itself.

- No module imports another concept module's private (``_``-prefixed) names; what is
  shared lives in a helper module named as such (``_validate``, ``_layout``, ``_threads``).
- No module over 500 lines.
- posenc imports no other project package and no Streamlit, Plotly or pandas.
"""

import ast
import re
from pathlib import Path

import pytest

import posenc

ROOT = Path(posenc.__file__).parent
MODULES = sorted(ROOT.glob("*.py"))
SHARED_HELPERS = {"_validate", "_layout", "_threads"}
MAX_LINES = 500


CONCEPTS = {path.stem for path in MODULES} - SHARED_HELPERS - {"__init__"}


def _imports(path: Path):
    """``(module, names)`` of every import, and ``(module.attribute, [])`` of every
    ``module.attribute`` whose module is a posenc concept module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in CONCEPTS
        ):
            yield f"{node.value.id}.{node.attr}", []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_module_reaches_into_another_modules_privates(path):
    reached = []
    for module, names in _imports(path):
        if module == "posenc":
            reached += [n for n in names if n.startswith("_") and n not in SHARED_HELPERS]
        elif module.startswith("posenc."):
            owner = module.split(".")[1]
            if owner not in SHARED_HELPERS:
                reached += [f"{module}.{n}" for n in names if n.startswith("_")]
        else:
            head, _, attr = module.partition(".")
            if head in CONCEPTS and head != path.stem and attr.startswith("_"):
                reached.append(module)
    assert not reached, f"{path.name} imports private names {reached}"


def test_the_test_catches_a_private_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from posenc.rope import _pairs, rope\nfrom posenc._validate import check_int\n")
    names = [n for module, ns in _imports(bad) if module == "posenc.rope" for n in ns]
    assert names == ["_pairs", "rope"]
    bad.write_text("from posenc import rope\nx = rope._theta(4, 10.0)\n")
    assert ("rope._theta", []) in list(_imports(bad))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_module_over_500_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name}: {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_posenc_imports_no_project_package_and_no_ui_library(path):
    banned = {"ui", "pages", "app", "bench", "tests", "streamlit", "plotly", "pandas"}
    found = [m for m, _ in _imports(path) if m.split(".")[0] in banned]
    assert not found, f"{path.name} imports {found}"


def test_one_glossary_in_the_package_docstring():
    doc = posenc.__doc__
    glossary = doc[doc.index("Glossary") : doc.index("Naming pattern")]
    for symbol in ("p", "m", "n", "i", "d", "b", "omega_i", "lambda_i", "T(k)", "theta_j", "L"):
        assert f"``{symbol}``" in glossary or f"``{symbol}``," in glossary, symbol
    others = [p.name for p in MODULES if p.stem != "__init__" and "Glossary" in p.read_text()]
    assert others == []


def test_the_naming_pattern_names_only_public_functions():
    doc = posenc.__doc__
    pattern = doc[doc.index("Naming pattern") :]
    named = set(re.findall(r"``([a-z_]+)``", pattern)) - {"interleaved", "split"}
    exported = set(posenc.__all__)
    assert named - exported <= {
        "length",
        "d_model",
        "head_dim",
        "base",
        "layout",
        "k",
        "positions",
        "offsets",
        "_validate",
        "_layout",
        "_threads",
    }
    assert {"sinusoidal", "rotation_matrix", "dot_products", "offset_dot"} <= named
