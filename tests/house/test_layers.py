"""The layers of the house (issues 25 and 30), enforced by tools rather than prose.

- ``lint-imports`` (import-linter, contracts in pyproject.toml): page folders -> shared
  Streamlit machinery -> plain helpers -> posenc; page folders independent of each other
  (also through a shared module); figure modules import no Streamlit, posenc or pandas;
  plain helpers no Streamlit; posenc numpy only. Each kind of violation is planted in a
  copy of the tree and must break its contract.
- pages are leaves: ``pages/`` is not a package (its files start with digits), so
  import-linter cannot see it; this file parses every Python file of the project and fails
  on any import of ``pages`` or any dynamic load of a page file.
- every page folder has the same file names, each module a known job; entry scripts are
  one call; sizes and the data modules' job.
"""

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support.tree import copy_tree

ROOT = Path(__file__).resolve().parents[2]
SKIP = {"test-artifacts", "node_modules"}
SOURCES = sorted(
    p for p in ROOT.rglob("*.py") if not any(x.startswith(".") or x in SKIP for x in p.parts)
)
LOADERS = {"import_module", "spec_from_file_location", "run_path", "run_module", "__import__"}


def lint_imports(cwd: Path = ROOT) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    return subprocess.run(
        [exe, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def test_import_contracts_are_kept():
    done = lint_imports()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout
    assert "0 broken" in done.stdout


def _copy_tree(tmp_path: Path) -> Path:
    return copy_tree(tmp_path, ("posenc", "ui", "pyproject.toml"))


# (file, line planted at its top, what lint-imports must then report broken)
PLANTS = {
    "posenc imports Streamlit": (
        "posenc/float32.py", "import streamlit", ["posenc.float32 -> streamlit"],
    ),
    "a page folder imports another": (
        "ui/features/heatmap/data.py", "import ui.features.rope.specs",
        ["page folders are independent", "ui.features.heatmap.data -> ui.features.rope.specs"],
    ),
    "a page folder reaches another through a shared module": (
        "ui/plain/clock.py", "import ui.features.wavelengths.data",
        ["ui.plain.clock -> ui.features.wavelengths.data", "page folders are independent",
         "ui.features.story.view -> ui.plain.clock"],
    ),
    "a shared module imports a page folder": (
        "ui/shared/notices.py", "import ui.features.heatmap.data",
        ["ui.shared.notices -> ui.features.heatmap.data"],
    ),
    "a figure module imports Streamlit": (
        "ui/features/rope/figures.py", "import streamlit",
        ["figure builders take arrays", "ui.features.rope.figures -> streamlit"],
    ),
    "a figure module imports posenc": (
        "ui/features/wavelengths/figures_float_forms.py", "import posenc",
        ["ui.features.wavelengths.figures_float_forms -> posenc"],
    ),
    "the controls facade is imported back by a module it re-exports": (
        "ui/shared/layout.py", "from ui.shared import controls",
        ["ui.shared.layout -> ui.shared.controls"],
    ),
    "a plain helper imports Streamlit": (
        "ui/plain/tables.py", "import streamlit", ["ui.plain.tables -> streamlit"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("plant", PLANTS, ids=list(PLANTS))
def test_lint_imports_fails_on_a_planted_violation(tmp_path, plant):
    """Each contract can fail: a copy of the tree with one bad import breaks it."""
    path, line, reported = PLANTS[plant]
    root = _copy_tree(tmp_path)
    bad = root / path
    bad.write_text(f"{line}  # noqa\n" + bad.read_text(encoding="utf-8"))
    done = lint_imports(root)
    assert done.returncode != 0 and "BROKEN" in done.stdout
    flat = " ".join(done.stdout.split())  # lint-imports wraps long contract names
    for text in reported:
        assert text in flat, (text, done.stdout[-3000:])


def _page_imports(path: Path) -> list[str]:
    """Every import of ``pages`` in ``path``, and every loader call naming a page file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in LOADERS:
                names = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
        found += [
            f"line {node.lineno}: {n}" for n in names if n.split(".")[0] == "pages" or "pages/" in n
        ]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_imports_a_page(path):
    assert not _page_imports(path), f"{path.relative_to(ROOT)} imports a page"


def test_the_page_rule_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import pages.x\nfrom pages import y\nimport runpy\nrunpy.run_path('pages/1_Heatmap.py')\n"
    )
    assert len(_page_imports(bad)) == 3
    assert len(SOURCES) > 100 and any(p.parent.name == "pages" for p in SOURCES)


def _defined(pattern: str) -> list[str]:
    """Project files (texts aside) whose source matches ``pattern``."""
    return [
        str(p.relative_to(ROOT))
        for p in SOURCES
        if not p.name.startswith("texts_") and "tests" not in p.relative_to(ROOT).parts
        and re.search(pattern, p.read_text(encoding="utf-8"), re.M)
    ]  # fmt: skip


def test_one_definition_each():
    """MAX_LINE_POINTS and the block-means notice live in one place (issue 25 §2)."""
    assert _defined(r"^MAX_LINE_POINTS\s*=") == ["ui/plain/grids.py"]
    assert _defined(r"\"common\.downsampled\"") == ["ui/shared/notices.py"]


def test_contributing_names_every_shared_module_and_page_file():
    """CONTRIBUTING.md's "Shape of the house" says what each shared module and each page
    folder file name is for."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    house = text[text.index("## Shape of the house") : text.index("## Add a control")]
    shared = [
        p for folder in ("shared", "plain") for p in sorted((ROOT / "ui" / folder).glob("*.py"))
    ]
    missing = [
        str(p.relative_to(ROOT)) for p in shared
        if p.stem != "__init__" and f"`{p.stem}`" not in house and f"`{p.name}`" not in house
    ]  # fmt: skip
    missing += [name for name in (*PAGE_FILES, "tab_<name>.py") if f"`{name}`" not in house]
    assert not missing, f"CONTRIBUTING.md's house does not name {missing}"


# ------------------------------------------------------------------ page folders
FEATURES = ROOT / "ui" / "features"
PAGE_FOLDERS = sorted(p for p in FEATURES.iterdir() if (p / "__init__.py").exists())
# Every page folder has these (home and story have no tabs: their page.py draws it all) ...
PAGE_FILES = ("page.py", "specs.py", "texts_en.py", "texts_zh.py")
# ... and any other module is one of these jobs, named the same way in every folder.
JOBS = re.compile(r"(__init__|data|figures|view|(tab|figures|data)_[a-z_]+)\.py")


def test_every_page_folder_has_the_same_files():
    assert {p.name for p in PAGE_FOLDERS} >= {
        "home", "story", "heatmap", "wavelengths", "binary", "rotation", "rope", "schemes"
    }  # fmt: skip
    problems = []
    for folder in PAGE_FOLDERS:
        names = {p.name for p in folder.glob("*.py")}
        problems += [f"{folder.name}: no {n}" for n in PAGE_FILES if n not in names]
        problems += [
            f"{folder.name}/{n}: unknown job" for n in sorted(names - set(PAGE_FILES))
            if not JOBS.fullmatch(n)
        ]  # fmt: skip
        problems += [f"{folder.name}: subfolder {p.name}" for p in folder.iterdir()
                     if p.is_dir() and p.name != "__pycache__"]  # fmt: skip
    assert problems == []


def test_a_page_folders_init_imports_nothing():
    """The text catalogue imports ``ui.features.<page>.texts_<lang>``, which runs the
    folder's ``__init__``: it must stay free of imports (no page loaded for its texts)."""
    for folder in PAGE_FOLDERS:
        tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


ENTRY = re.compile(
    r'"""[^"]+"""\n\nfrom ui\.features\.(?P<page>\w+) import page\n\npage\.render\(\)\n'
)


@pytest.mark.parametrize(
    "script", ["app.py", *sorted(p.name for p in (ROOT / "pages").glob("*.py"))]
)
def test_entry_scripts_are_one_call(script):
    """``app.py`` and ``pages/*.py`` exist for Streamlit's URLs; each draws its page folder's
    ``page.render()`` and nothing else."""
    path = ROOT / script if script == "app.py" else ROOT / "pages" / script
    match = ENTRY.fullmatch(path.read_text(encoding="utf-8"))
    assert match and (FEATURES / match["page"] / "page.py").exists()


@pytest.mark.parametrize("path", sorted(FEATURES.glob("*/page.py")), ids=lambda p: p.parent.name)
def test_pages_run_their_tabs_one_way(path):
    """One tab-running style (issue 25 §2): ``controls.run_open_tab`` with a function per
    tab, not flat ``with tabs[...]: if tabs[...].open:`` blocks."""
    source = path.read_text(encoding="utf-8")
    assert "lazy_tabs(" not in source and not re.search(r"if tabs\[", source)


def _imports_plotly(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.startswith("plotly") for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("plotly"):
            return True
    return False


def _figure_modules() -> set[str]:
    """Modules of ui/ that build Plotly figures: ``figures*.py``, and plain helpers that
    import plotly."""
    found = {p for p in (ROOT / "ui").rglob("figures*.py")}
    found |= {p for p in (ROOT / "ui" / "plain").glob("*.py") if _imports_plotly(p)}
    return {".".join(p.relative_to(ROOT).with_suffix("").parts) for p in found}


def test_every_figure_module_is_under_the_figure_contract():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    listed = next(c for c in contracts["contracts"] if c["name"].startswith("figure builders"))
    patterns = [re.escape(m).replace(r"\*", r"[a-z_]+") for m in listed["source_modules"]]
    uncovered = [
        m for m in sorted(_figure_modules()) if not any(re.fullmatch(p, m) for p in patterns)
    ]
    assert len(_figure_modules()) >= 12 and uncovered == []


# ------------------------------------------------------------------ sizes and jobs
# Line limits of the house (CONTRIBUTING.md): a module of ui/ or posenc/ (texts aside)
# under 500 lines, a page script under 250.
MODULES = [
    p for p in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "posenc").rglob("*.py")]
    if not p.name.startswith("texts_")
]  # fmt: skip
SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_over_500_lines_and_no_page_over_250():
    assert len(MODULES) >= 60 and len(SCRIPTS) >= 8
    long_modules = {str(p.relative_to(ROOT)): n for p in MODULES if (n := _lines(p)) >= 500}
    long_pages = {str(p.relative_to(ROOT)): n for p in SCRIPTS if (n := _lines(p)) >= 250}
    assert long_modules == {} and long_pages == {}


# What a page folder's data*.py module may not do: show text, take a click, or translate.
DISPLAY_CALLS = re.compile(
    r"\bst\.(caption|markdown|write|info|warning|error|success|button|dataframe|table"
    r"|plotly_chart|latex|metric|expander|columns|tabs)\b|\bon_click\b|\bon_change\b"
)


def data_module_problems(source: str) -> list[str]:
    """Display calls, callbacks and translations in the source of a ``_data`` module."""
    problems = [m.group(0) for m in DISPLAY_CALLS.finditer(source)]
    for node in ast.walk(ast.parse(source)):
        translates = (
            node.module == "ui.shared.i18n"
            or (  # an error with a text key is no text
                node.module == "ui.plain.texts" and {a.name for a in node.names} != {"TextError"}
            )
            if isinstance(node, ast.ImportFrom)
            else False
        )
        if translates:
            problems.append(f"from {node.module} import ...")
        if isinstance(node, ast.Import) and any(a.name == "pandas" for a in node.names):
            problems.append("import pandas")  # tables with headers belong to the view side
    return problems


@pytest.mark.parametrize(
    "path", sorted(FEATURES.glob("*/data*.py")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_data_modules_only_compute(path):
    assert data_module_problems(path.read_text(encoding="utf-8")) == []


def test_the_data_module_rule_can_fail():
    source = (
        "import streamlit as st\nfrom ui.shared.i18n import t\n\ndef f():\n    st.caption(t('x'))\n"
    )
    assert data_module_problems(source) == ["st.caption", "from ui.shared.i18n import ..."]
    # The shape of the translated table ui/features/wavelengths/data.py built before 1d66dd6.
    old = "import pandas as pd\n\ndef forms_table(compare, tr):\n    return pd.DataFrame()\n"
    assert data_module_problems(old) == ["import pandas"]
