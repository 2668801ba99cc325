"""Keep the first chart fast without timing it (issue #32): each menu page's first view
(its URL, the defaults, a desktop) is held to a recorded budget of what the browser must
handle before its first chart, counted from the messages the script sends.

``bench/first_chart.py`` times the first chart and ``bench/first_chart_parts.py`` what
each element costs (bench/README.md, "Time to first chart"): the first element of a kind
pays for its JavaScript chunk (+0.03-0.09x of a bare page's time: a text box +0.089x, a
number box +0.067x, a formula +0.048x), further elements of a kind little, a 256 x 256
heatmap +0.068x over a small chart; every Python module a page imports is paid once per
server by its first visitor. So, per page, from ``first_chart_budget.json``:

- ``kinds``: the kinds of element sent before the first chart; a new one fails;
- ``formulas``: ``st.latex`` before the first chart (KaTeX's work): no more than recorded;
- ``elements``: deltas (elements and blocks) before the first chart, up to ``ELEMENTS`` more;
- ``chart_bytes``: the first chart's JSON, up to ``CHART_GROWTH`` larger;
- ``modules``: modules a fresh process imports to draw the page, up to ``MODULE_GROWTH``.

A change that makes a first view lighter passes; record it so the budget follows:
``python tests/sweeps/test_first_chart_budget.py --record`` (review the diff).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # --record: run from anywhere
    sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent)]

from support.apptest import run_page  # noqa: E402
from support.paths import ROOT  # noqa: E402
from support.tree import copy_tree, run_in  # noqa: E402
from support.views import IDS, PAGES, script  # noqa: E402

BUDGET = HERE / "first_chart_budget.json"
ELEMENTS = 3  # "a few elements": a caption or a column more is inside the noise
CHART_GROWTH = 1.10
MODULE_GROWTH = 1.05
TIMEOUT = 240


def _kind(delta) -> str:
    """An element's kind as the front end loads it: the element type, Markdown by its
    flavour (a formula is KaTeX, a caption or divider plain Markdown), blocks by type."""
    which = delta.WhichOneof("type")
    if which == "new_element":
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "markdown":
            return "markdown:" + element.markdown.Type.Name(element.markdown.element_type)
        return kind
    if which == "add_block":
        return "block:" + (delta.add_block.WhichOneof("type") or "vertical")
    return which


def sent_messages(page: Path, query: dict | None = None) -> list:
    """The ForwardMsgs of a page's first run, in the order the script sent them."""
    import streamlit.testing.v1.local_script_runner as runner

    captured: list = []
    parse = runner.parse_tree_from_messages

    def keep(messages):
        captured[:] = list(messages)
        return parse(messages)

    runner.parse_tree_from_messages = keep
    try:
        run_page(page, query, timeout=TIMEOUT, unfold=False)  # as a visitor first sees it
    finally:
        runner.parse_tree_from_messages = parse
    return captured


def before_first_chart(messages: list) -> dict:
    """What the browser gets before the page's first chart, and that chart's size."""
    kinds: list[str] = []
    chart_bytes = None
    for message in messages:
        if message.WhichOneof("type") != "delta":
            continue
        kind = _kind(message.delta)
        if kind == "plotly_chart":
            chart_bytes = len(message.delta.new_element.plotly_chart.spec.encode())
            break
        kinds.append(kind)
    return {
        "elements": len(kinds),
        "kinds": sorted(set(kinds)),
        "formulas": kinds.count("markdown:LATEX"),
        "chart_bytes": chart_bytes,
    }


MODULES = """
import sys
sys.path[:0] = [".", "tests"]
from support.apptest import run_page
before = set(sys.modules)
run_page(sys.argv[1], None, timeout=240, unfold=False)
print(len(set(sys.modules) - before))
"""


def modules_imported(page: Path, root: Path = ROOT) -> int:
    """Modules a fresh Python process imports to run ``page`` (Streamlit's AppTest and
    the test helpers already loaded): what the server's first visitor waits for."""
    done = subprocess.run(
        [sys.executable, "-c", MODULES, str(page)],
        cwd=root, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.strip().splitlines()[-1])


def measure(entry, modules: bool = True) -> dict:
    found = before_first_chart(sent_messages(script(entry)))
    if modules:
        found["modules"] = modules_imported(script(entry))
    return found


def over_budget(found: dict, budget: dict) -> list[str]:
    """How a measured first view exceeds its budget (empty: within it)."""
    out = []
    new = sorted(set(found["kinds"]) - set(budget["kinds"]))
    if new:
        out.append(f"new kinds of element before the first chart: {new}")
    if found["formulas"] > budget["formulas"]:
        out.append(
            f"{found['formulas']} formulas before the first chart, budget {budget['formulas']}"
        )
    if found["elements"] > budget["elements"] + ELEMENTS:
        out.append(
            f"{found['elements']} elements before the first chart, budget {budget['elements']}"
            f" + {ELEMENTS}"
        )
    if found["chart_bytes"] is None:
        out.append("no chart")
    elif found["chart_bytes"] > budget["chart_bytes"] * CHART_GROWTH:
        out.append(f"first chart {found['chart_bytes']} bytes, budget {budget['chart_bytes']}")
    if "modules" in found and found["modules"] > budget["modules"] * MODULE_GROWTH:
        out.append(f"{found['modules']} modules imported, budget {budget['modules']}")
    return out


def budgets() -> dict:
    return json.loads(BUDGET.read_text())


def test_every_menu_page_has_a_budget():
    assert sorted(budgets()) == sorted(IDS)


@pytest.mark.parametrize("entry", PAGES, ids=IDS)
def test_the_first_view_stays_within_its_budget(entry):
    found = measure(entry)
    missed = over_budget(found, budgets()[entry.name])
    assert not missed, f"{entry.name}: {'; '.join(missed)} (measured {found}; see the docstring)"


def test_the_budget_check_catches_each_kind_of_growth():
    budget = {"elements": 20, "kinds": ["radio", "slider"], "formulas": 1, "chart_bytes": 1000}
    ok = {**budget, "modules": 100}
    assert over_budget(ok, {**budget, "modules": 100}) == []
    assert over_budget({**ok, "elements": 23}, {**budget, "modules": 100}) == []
    for grown in (
        {"elements": 24},
        {"kinds": ["radio", "slider", "text_input"]},
        {"formulas": 2},
        {"chart_bytes": 1101},
        {"chart_bytes": None},
        {"modules": 106},
    ):
        assert over_budget({**ok, **grown}, {**budget, "modules": 100}), grown


# Run in a copy of the tree, in a process of its own (this one has the real ui imported).
PLANTED = """
import json, sys
sys.path[:0] = [".", "tests", "tests/sweeps"]
from support.views import PAGES
import test_first_chart_budget as b
found = {e.name: b.measure(e, modules=False) for e in PAGES if e.name in ("home", "story")}
print(json.dumps({name: b.over_budget(f, b.budgets()[name]) for name, f in found.items()}))
"""


def test_a_formula_planted_before_the_first_chart_fails_the_budget(tmp_path):
    copy_tree(tmp_path)
    # One st.latex at the top of two entry scripts: the story's first view has no
    # formula (a new kind), home's has some (one more, inside the element tolerance).
    for entry in ("app.py", "pages/0_Start_here.py"):
        path = tmp_path / entry
        source = path.read_text()
        assert "\npage.render()" in source
        planted = '\nimport streamlit as st\nst.latex("x")\npage.render()'
        path.write_text(source.replace("\npage.render()", planted))
    missed = run_in(tmp_path, PLANTED, timeout=600)
    assert any("new kinds" in m and "markdown:LATEX" in m for m in missed["story"]), missed
    home = budgets()["home"]["formulas"]
    assert home >= 1  # else the planted one would be a new kind there too
    assert any(m.startswith(f"{home + 1} formulas") for m in missed["home"]), missed


def record() -> None:
    """Measure every page and write the budget file."""
    found = {entry.name: measure(entry) for entry in PAGES}
    BUDGET.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    for name, f in found.items():
        print(name, f, file=sys.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Record the first views' budgets.")
    parser.add_argument("--record", action="store_true", required=True)
    parser.parse_args()
    record()
