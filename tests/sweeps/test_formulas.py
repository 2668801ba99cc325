"""Every formula the app shows parses with the KaTeX that Streamlit ships: no red text.

KaTeX draws what it cannot parse in red instead of failing, so a broken formula passes
every other test. One did: Python joins ``r"...,\\quad"`` and ``r"y(r) = ..."`` into
the unknown control sequence ``\\quady``, and the RoPE decay bound showed it in red.

Formulas come from two places:
- every string the code hands to ``st.latex`` or keeps in a ``FORMULA``/``FORMULAS``
  table, read from the source (Python's own parser joins adjacent literals);
- every formula every tab draws: at its defaults in English and in Chinese, with all
  settings at their minimum and at their maximum, and with each option of each choice.
Each is rendered in Chromium by Streamlit's own KaTeX module with ``throwOnError``.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
import streamlit
from support import views as put
from support.apptest import run_page
from support.counts import CASES

from ui.plain.params import ChoiceParam

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *(ROOT / "ui").rglob("*.py")]
KATEX = Path(streamlit.__file__).parent / "static" / "static" / "js"


def _is_formula_table(node: ast.AST) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return any(isinstance(t, ast.Name) and "FORMULA" in t.id for t in targets)


@cache
def written_formulas() -> frozenset[str]:
    """String literals passed to ``.latex(...)`` or stored in a FORMULA(S) table."""
    found = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values: list = []
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "latex":
                values = node.args[:1]
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and _is_formula_table(node):
                table = node.value
                values = table.values if isinstance(table, ast.Dict) else [table]
            found |= {v.value for v in values if isinstance(v, ast.Constant)}
    return frozenset(v for v in found if isinstance(v, str))


def variants(entry) -> list[dict[str, str]]:
    """Queries for one tab: defaults in English, every setting at its minimum (English)
    and at its maximum (Chinese), and every option of every choice in as few runs as the
    longest choice needs.

    The extremes run each choice's first and last option and each switch off and on; run
    ``i`` of the rest sets every choice with more than ``i + 2`` options to option
    ``i + 1`` at once (options do not combine into formulas of their own). About 40 % of
    the runs of one run per option (547 before).
    """
    specs = [s for s in put.all_specs(entry) if s.key not in ("lang", "present")]
    tab = put.tab_spec(entry)
    specs = [s for s in specs if s is not tab]
    queries = [
        {},
        {s.key: put.extreme(s, "min") for s in specs},
        {s.key: put.extreme(s, "max") for s in specs} | {"lang": "zh"},
    ]
    choices = [s.options for s in specs if isinstance(s, ChoiceParam)]
    for i in range(1, max(map(len, choices), default=0) - 1):
        queries.append({s.key: s.options[i] for s in specs if isinstance(s, ChoiceParam)
                        and i < len(s.options) - 1})  # fmt: skip
    return queries


DISPLAY_MATH = re.compile(r"^\$\$\n(.*?)\n\$\$$", re.DOTALL | re.MULTILINE)


def drawn_formulas(entry, opened: dict) -> frozenset[str]:
    """Every ``st.latex`` body one tab draws under :func:`variants`."""
    found = set()
    for query in variants(entry):
        at = run_page(put.script(entry), query | opened, 120)
        # st.latex sends its body as Markdown display math: "$$\n...\n$$"; a Markdown
        # text may hold such blocks too (Binary's scheme columns: name, formula, flaw).
        found |= {element.value.removeprefix("$$\n").removesuffix("\n$$") for element in at.latex}
        for element in (*at.markdown, *at.caption):
            found |= set(DISPLAY_MATH.findall(element.value))
        CASES["formula runs"] += 1
    return frozenset(found)


def katex_errors(server, browser, formulas) -> dict[str, str]:
    """KaTeX's parse error for each formula that has one (Streamlit's own KaTeX build)."""
    chunk = next(KATEX.glob("katex.*.js")).name
    page = browser.new_page()
    try:
        page.goto(server.url + "/_stcore/health")
        errors = page.evaluate(
            """async ([chunk, formulas]) => {
                const katex = (await import('/static/js/' + chunk)).default;
                return formulas.map(f => {
                    try { katex.renderToString(f, {displayMode: true, throwOnError: true}); }
                    catch (e) { return String(e.message); }
                    return null;
                });
            }""",
            [chunk, sorted(formulas)],
        )
    finally:
        page.close()
    return {f: e for f, e in zip(sorted(formulas), errors, strict=True) if e}


def test_katex_reports_an_unknown_control_sequence(server, browser):
    """The check itself: the bug it was written for is reported, a good formula is not."""
    errors = katex_errors(server, browser, {r"a,\quady(r)", r"a,\quad y(r)"})
    assert list(errors) == [r"a,\quady(r)"]
    assert "Undefined control sequence" in errors[r"a,\quady(r)"]


def test_every_formula_in_the_code_parses(server, browser):
    formulas = written_formulas()
    assert len(formulas) >= 30  # the scan finds the pages' formulas (40 today), not nothing
    CASES["formulas in the code"] += len(formulas)
    assert katex_errors(server, browser, formulas) == {}


# Tabs whose view holds no formula: the Python loops (code), a distance matrix, the
# schemes' matrices and their table of properties.
NO_FORMULA = {"binary[loops]", "binary[distance]", "schemes[matrix]", "schemes[properties]"}


@pytest.mark.parametrize(("entry", "tab", "opened"), put.PAGE_TABS, ids=put.PAGE_TAB_IDS)
def test_every_formula_on_screen_parses(entry, tab, opened, server, browser):
    """One test per tab, so the page runs spread over the workers."""
    formulas = drawn_formulas(entry, opened)
    view = f"{entry.name}[{tab}]"
    assert bool(formulas) != (view in NO_FORMULA), view  # drawn, or known to draw none
    CASES["formulas drawn"] += len(formulas)
    assert katex_errors(server, browser, formulas) == {}
