"""The layers of the house (issue 25 §2), enforced by tools rather than prose.

- ``lint-imports`` (import-linter, contracts in pyproject.toml): posenc imports no project
  package and no Streamlit, Plotly or pandas; ui.figures imports no Streamlit and no posenc.
  Forbidden contracts also catch an import through a third module.
- pages are leaves: ``pages/`` is not a package (its files start with digits), so
  import-linter cannot see it; this file parses every Python file of the project and fails
  on any import of ``pages`` or any dynamic load of a page file.
"""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_lint_imports_fails_on_a_broken_contract(tmp_path):
    """The check above can fail: a copy of the tree where posenc imports Streamlit breaks."""
    for name in ("posenc", "ui", "pyproject.toml"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, tmp_path / name)
    bad = tmp_path / "posenc" / "float32.py"
    bad.write_text("import streamlit  # noqa\n" + bad.read_text(encoding="utf-8"))
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    assert "posenc.float32 -> streamlit" in done.stdout


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
        if p.parts[-3:-1] != ("ui", "texts") and "texts" not in p.parts[-3:-1]
        and p.parent.name != "tests" and re.search(pattern, p.read_text(encoding="utf-8"), re.M)
    ]  # fmt: skip


def test_one_definition_each():
    """MAX_LINE_POINTS and the block-means notice live in one place (issue 25 §2)."""
    assert _defined(r"^MAX_LINE_POINTS\s*=") == ["ui/figures/common.py"]
    assert _defined(r"\"common\.downsampled\"") == ["ui/shared/notices.py"]


def test_contributing_table_names_every_ui_module():
    """CONTRIBUTING.md's "Shape of the house" table says where each module of ui/ belongs."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    table = text[text.index("## Shape of the house") : text.index("## A page, step by step")]
    missing = []
    for path in sorted((ROOT / "ui").glob("*.py")):
        stem = path.stem
        named = f"ui/{stem}.py" in table or f"`{stem}`" in table
        if stem.endswith("_data"):
            named = named or f"`{stem.removesuffix('_data')}`" in table
        if stem != "__init__" and not named:
            missing.append(stem)
    assert not missing, f"CONTRIBUTING.md's table does not name {missing}"


@pytest.mark.parametrize("path", sorted((ROOT / "pages").glob("*.py")), ids=lambda p: p.name)
def test_pages_run_their_tabs_one_way(path):
    """One tab-running style (issue 25 §2): ``controls.run_open_tab`` with a function per
    tab, not flat ``with tabs[...]: if tabs[...].open:`` blocks."""
    source = path.read_text(encoding="utf-8")
    assert "lazy_tabs(" not in source and not re.search(r"if tabs\[", source)


# Each page's own modules: ui/<page>.py, ui/<page>_<job>.py, and two tabs named for their topic.
PAGE_OF_SCRIPT = {
    "app.py": "home",
    "pages/0_Start_here.py": "story",
    "pages/1_Heatmap.py": "heatmap",
    "pages/2_Wavelengths.py": "wavelengths",
    "pages/3_Binary_vs_sinusoid.py": "binary",
    "pages/4_Rotation.py": "rotation",
    "pages/5_RoPE.py": "rope",
    "pages/6_Schemes_compared.py": "schemes",
}
PAGE_TABS = {"float_forms": "wavelengths", "sine_basics": "wavelengths"}


def _owner(module: str) -> str | None:
    """The page whose module ``ui.<name>`` is, or None for a shared module."""
    parts = module.split(".")
    if len(parts) != 2 or parts[0] != "ui":
        return None
    name = parts[1]
    pages = set(PAGE_OF_SCRIPT.values())
    return PAGE_TABS.get(name) or next(
        (p for p in pages if name == p or name.startswith(p + "_")), None
    )


def _ui_imports(path: Path) -> set[str]:
    """Every ``ui.<name>`` module ``path`` imports (``import ui.x``, ``from ui import x``,
    ``from ui.x import y``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {".".join(a.name.split(".")[:2]) for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "ui":
                found |= {f"ui.{a.name}" for a in node.names}
            else:
                found.add(".".join(node.module.split(".")[:2]))
    return {m for m in found if m.startswith("ui.")}


def _cross_page_imports(root: Path = ROOT) -> list[str]:
    """``importer -> module`` for each page script or ui module that imports another
    page's ``ui/<page>_*.py`` module; shared modules may import no page's module."""
    importers = {root / s: p for s, p in PAGE_OF_SCRIPT.items()}
    importers |= {path: _owner(f"ui.{path.stem}") for path in sorted((root / "ui").glob("*.py"))}
    return [
        f"{path.relative_to(root)} ({page or 'shared'}) -> {module}"
        for path, page in importers.items()
        for module in sorted(_ui_imports(path))
        if _owner(module) not in (None, page)
    ]


def test_no_page_imports_another_pages_modules():
    """A piece two pages need has a shared home (issue 25 §2): no page script or module
    imports another page's ``ui/<page>_data.py`` or ``ui/<page>_<tab>.py``."""
    scripts = {str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")}
    assert scripts | {"app.py"} == set(PAGE_OF_SCRIPT)  # a new page is named above
    assert not _cross_page_imports(), _cross_page_imports()


def test_the_cross_page_rule_can_fail(tmp_path):
    """The old home of table_grid (ui.features.heatmap.data, imported by app.py and ui/features/story/view.py)
    and a shared module reaching into a page's data are both caught."""
    (tmp_path / "ui").mkdir()
    (tmp_path / "pages").mkdir()
    for script in PAGE_OF_SCRIPT:
        (tmp_path / script).write_text("import streamlit\n")
    (tmp_path / "app.py").write_text("from ui.features.heatmap.data import table_grid\n")
    (tmp_path / "ui" / "story.py").write_text("from ui import heatmap_data, story_data\n")
    (tmp_path / "ui" / "learned.py").write_text("import ui.features.schemes.data\n")
    (tmp_path / "ui" / "float_forms.py").write_text("from ui import wavelengths_data\n")
    assert _cross_page_imports(tmp_path) == [
        "app.py (home) -> ui.features.heatmap.data",
        "ui/shared/learned.py (shared) -> ui.features.schemes.data",
        "ui/features/story/view.py (story) -> ui.features.heatmap.data",
    ]


# ------------------------------------------------------------------ sizes and jobs
# Line limits of the house (CONTRIBUTING.md): a module of ui/ or posenc/ (texts aside)
# under 500 lines, a page script under 250.
MODULES = [
    p for p in [*(ROOT / "ui").rglob("*.py"), *(ROOT / "posenc").rglob("*.py")]
    if "texts" not in p.relative_to(ROOT).parts
]  # fmt: skip
SCRIPTS = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_over_500_lines_and_no_page_over_250():
    assert len(MODULES) >= 60 and len(SCRIPTS) >= 8
    long_modules = {str(p.relative_to(ROOT)): n for p in MODULES if (n := _lines(p)) >= 500}
    long_pages = {str(p.relative_to(ROOT)): n for p in SCRIPTS if (n := _lines(p)) >= 250}
    assert long_modules == {} and long_pages == {}


# What a ui/<page>_data.py module may not do: show text, take a click, or translate.
DISPLAY_CALLS = re.compile(
    r"\bst\.(caption|markdown|write|info|warning|error|success|button|dataframe|table"
    r"|plotly_chart|latex|metric|expander|columns|tabs)\b|\bon_click\b|\bon_change\b"
)


def data_module_problems(source: str) -> list[str]:
    """Display calls, callbacks and translations in the source of a ``_data`` module."""
    problems = [m.group(0) for m in DISPLAY_CALLS.finditer(source)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in ("ui.shared.i18n", "ui.plain.texts"):
            problems.append(f"from {node.module} import ...")
        if isinstance(node, ast.Import) and any(a.name == "pandas" for a in node.names):
            problems.append("import pandas")  # tables with headers belong to the view side
    return problems


@pytest.mark.parametrize("path", sorted((ROOT / "ui").glob("*_data.py")), ids=lambda p: p.name)
def test_data_modules_only_compute(path):
    assert data_module_problems(path.read_text(encoding="utf-8")) == []


def test_the_data_module_rule_can_fail():
    source = "import streamlit as st\nfrom ui.shared.i18n import t\n\ndef f():\n    st.caption(t('x'))\n"
    assert data_module_problems(source) == ["st.caption", "from ui.shared.i18n import ..."]
    # The shape of the translated table ui/features/wavelengths/data.py built before 1d66dd6.
    old = "import pandas as pd\n\ndef forms_table(compare, tr):\n    return pd.DataFrame()\n"
    assert data_module_problems(old) == ["import pandas"]
