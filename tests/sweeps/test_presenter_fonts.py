"""Projector type in every chart (issue #32): in presenter mode, every font size a figure
sends (the layout's, titles, axes, legends, annotations, colour bars, text drawn by traces,
menus and sliders; in its frames too) is at least 18 px, on every page, tab and story
step. A size the figure leaves unset falls back to the layout's font, which must itself be
set and >= 18. The browser's view of the same rule: ``tests/browser/test_first_view.py``.

Before this test, the story's clock dials (step 5) wrote their labels at 11 px on a
projector: ``ui.plain.style.presenter_fonts`` raised ticks, titles and annotations, never
the text of a trace.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from support.apptest import run_page
from support.screen import decode, figures
from support.tree import copy_tree, run_in
from support.views import PAGE_TAB_IDS, PAGE_TABS, script

from ui.plain.style import PRESENTER_TICK

TIMEOUT = 240


def small_fonts(fig: dict, least: int = PRESENTER_TICK) -> list[tuple[str, float | None]]:
    """``(path, size)`` of every font size in ``fig`` (a Plotly figure as a dict) below
    ``least``, and of the layout's font when it is unset (every unset size inherits it)."""
    found: list[tuple[str, float | None]] = []
    base = fig.get("layout", {}).get("font", {}).get("size")
    if base is None or base < least:
        found.append(("layout.font.size", base))

    def walk(node, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                where = f"{path}.{key}" if path else key
                if (key == "font" or key.endswith("font")) and isinstance(value, dict):
                    sizes = np.ravel(decode(value.get("size", []))).tolist()
                    found.extend((f"{where}.size", s) for s in sizes if s is not None and s < least)
                walk(value, where)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}[{i}]")

    walk({k: v for k, v in fig.items() if k != "layout"}, "")
    walk(fig.get("layout", {}), "layout")
    return found


@pytest.mark.parametrize(("entry", "name", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_every_chart_font_is_projector_size_in_presenter_mode(entry, name, query):
    at = run_page(script(entry), {**query, "present": "true"}, timeout=TIMEOUT)
    small = {i: small_fonts(fig) for i, fig in enumerate(figures(at))}
    assert not any(small.values()), {i: s for i, s in small.items() if s}


def _clock_figure() -> dict:
    from ui.plain.clock import clock_figure

    x = np.zeros((2, 8))
    labels = [f"i={i}" for i in range(8)]
    fig = clock_figure(labels, np.arange(2), x, x + 1, play="Play", pause="Pause", columns=4)
    return fig


def test_the_check_finds_the_dials_11_px_labels_of_a_figure_not_fitted_to_a_projector():
    found = dict(small_fonts(json.loads(_clock_figure().to_json())))
    assert found["data[2].textfont.size"] == 11  # the dial labels
    assert found["layout.font.size"] == 13


def test_the_dials_labels_are_raised_to_18_px_by_presenter_fonts():
    from ui.plain.style import presenter_fonts

    fig = json.loads(presenter_fonts(_clock_figure()).to_json())
    assert fig["data"][2]["textfont"]["size"] == PRESENTER_TICK
    assert small_fonts(fig) == []


# Run in a copy of the tree, in a process of its own (this one has the real ui imported).
STEP_5 = """
import json, sys
sys.path[:0] = ["tests", "tests/sweeps"]
from support.apptest import run_page
from support.screen import figures
from test_presenter_fonts import small_fonts
at = run_page("0_Start_here.py", {"step": "5", "present": "true"}, timeout=240)
print(json.dumps([small_fonts(f) for f in figures(at)]))
"""


def test_the_sweep_fails_on_the_story_clock_when_presenter_fonts_skip_trace_text(tmp_path):
    # The fix planted back out: presenter_fonts without its clause for the text of traces.
    copy_tree(tmp_path)
    style = tmp_path / "ui/plain/style.py"
    source = style.read_text()
    clause = '        if "textfont" in trace and'
    assert clause in source
    style.write_text(source.replace(clause, "        if False and"))
    small = run_in(tmp_path, STEP_5, timeout=300)
    assert ["data[2].textfont.size", 11] in [s for fig in small for s in fig], small
