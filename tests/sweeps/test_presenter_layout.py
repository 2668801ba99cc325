"""Presenter mode on a 1024 px projector: rows that fit (``controls.cells``).

Presenter type is 1.5x larger, and with the sidebar open a 1024 px screen leaves ~560 px
for the page: five formulas or six buttons in one row were cut there (seen in Chromium).
In presenter mode such rows wrap after three; on a desktop they stay one row.
"""

from __future__ import annotations

import pytest
from support.apptest import run_page_on_tab
from support.screen import chart, chart_key, decode

from posenc.frameworks import FRAMEWORKS
from ui.features.binary import specs as binary_spec
from ui.features.heatmap import specs as heatmap_spec
from ui.features.rope import specs as rope_spec
from ui.features.rotation import specs as rotation_spec
from ui.features.wavelengths import specs as wavelengths_spec

TIMEOUT = 120


def widths(columns) -> list[float]:
    return [round(c.proto.weight, 3) for c in columns]


@pytest.mark.parametrize(("present", "expected"), [("false", [0.2] * 5), ("true", [0.333] * 6)])
def test_the_five_schemes_wrap_after_three_in_presenter_mode(present, expected):
    at = run_page_on_tab(
        "3_Binary_vs_sinusoid.py", binary_spec, {"present": present}, "evolution", TIMEOUT
    )
    texts = [[str(getattr(x, "value", "")) for x in c.children.values()] for c in at.columns]
    formulas = [c for c in texts if any("$$" in v for v in c)]  # name, formula, flaw: one each
    assert len(formulas) == 5
    row = [c for c in at.columns if round(c.proto.weight, 3) == expected[0]]
    assert widths(row) == expected  # presenter: 3 + 3 columns, the last one empty
    assert sum(not c.children for c in row) == len(expected) - 5


# Three in a row on every screen: six in one row cut their labels ("PyTorch tutorial, f…").
@pytest.mark.parametrize(("present", "width"), [("false", 0.333), ("true", 0.333)])
def test_the_six_framework_buttons_wrap_after_three(present, width):
    at = run_page_on_tab("1_Heatmap.py", heatmap_spec, {"present": present}, "frameworks", TIMEOUT)
    holders = [c for c in at.columns if any(k.startswith("hm_fw_") for k in _keys(c))]
    assert len(holders) == len(FRAMEWORKS)
    assert widths(holders) == [width] * len(FRAMEWORKS)


def _keys(column) -> list[str]:
    return [getattr(x, "key", None) or "" for x in column.children.values()]


def test_in_presenter_mode_the_layout_and_its_checkbox_stay_above_the_table_the_rest_aside():
    # The table's top at 1024 x 768 came under the fold with the sentence box and six
    # framework names above it (issue #21); the sidebar, closed, keeps them.
    at = run_page_on_tab("1_Heatmap.py", heatmap_spec, {"present": "true"}, None, TIMEOUT)
    assert not any("hm_layout" in _keys(c) for c in at.columns)
    assert at.radio(key="hm_layout") and at.checkbox(key="hm_group")
    aside = {w.key for w in [*at.sidebar.radio, *at.sidebar.text_input]}
    assert {"hm_framework", "hm_sentence"} <= aside
    assert not {"hm_layout", "hm_group"} & ({w.key for w in at.sidebar.checkbox} | aside)
    normal = run_page_on_tab("1_Heatmap.py", heatmap_spec, {}, None, TIMEOUT)
    assert "hm_group" not in _keys(next(c for c in normal.columns if "hm_layout" in _keys(c)))
    assert not {"hm_framework", "hm_sentence"} & {w.key for w in normal.sidebar.radio}


def _blocks(block) -> list:
    """``block`` and every block under it, depth first."""
    found = [block]
    for child in getattr(block, "children", {}).values():
        if hasattr(child, "children"):
            found += _blocks(child)
    return found


def _horizontal(block) -> bool:
    proto = getattr(block, "proto", None)
    flex = getattr(proto, "flex_container", None)
    return flex is not None and flex.direction == type(flex).Direction.HORIZONTAL


@pytest.mark.parametrize("present", ["false", "true"])
def test_the_seed_preset_buttons_get_a_row_each_in_presenter_mode(present):
    """On a desk the caption and the two buttons share one row (one horizontal block,
    issue #32); in presenter mode the buttons are in a popover, each a full-width row."""
    at = run_page_on_tab("2_Wavelengths.py", wavelengths_spec, {"present": present}, None, TIMEOUT)
    assert at.button(key="wl_preset_003") and at.button(key="wl_preset_004")
    holders = [
        b for b in _blocks(at.main) if any(k.startswith("wl_preset_") for k in _keys(b))
    ]  # fmt: skip
    assert len(holders) == 1 and _keys(holders[0]).count("") <= 1
    assert not [c for c in at.columns if any(k.startswith("wl_preset_") for k in _keys(c))]
    assert _horizontal(holders[0]) == (present == "false")


@pytest.mark.parametrize(
    ("present", "expected"), [("false", [0.2, 0.2, 0.3, 0.3]), ("true", [0.5, 0.5, 0.5, 0.5])]
)
def test_the_four_criteria_take_two_rows_in_presenter_mode(present, expected):
    at = run_page_on_tab(
        "3_Binary_vs_sinusoid.py", binary_spec, {"present": present}, "criteria", TIMEOUT
    )
    kinds = [[type(x).__name__ for x in c.children.values()] for c in at.columns]
    holders = [c for c, k in zip(at.columns, kinds, strict=True) if k[:2] == ["Markdown", "Latex"]]
    assert widths(holders) == expected


@pytest.mark.parametrize(("present", "columns", "rows"), [("false", 6, 2), ("true", 4, 3)])
def test_presenter_clock_dials_come_four_a_row_with_the_slider_under_the_buttons(
    present, columns, rows
):
    # Six dials a row in a ~560 px column were ~90 px wide in rows 262 px tall (blank
    # space above and below), and the "p = 3" label hid behind the 1.5x Play button.
    at = run_page_on_tab(
        "2_Wavelengths.py", wavelengths_spec, {"present": present}, "clock", TIMEOUT
    )
    fig = chart(at, "wl_clock_chart")
    ticks = decode(fig["data"][1]["x"])  # one 12 o'clock mark per dial, at its centre
    assert len(ticks) == 12
    assert len(set(ticks.tolist())) == columns
    assert len(set(decode(fig["data"][1]["y"]).tolist())) == rows
    assert fig["layout"]["sliders"][0]["x"] == (0 if present == "true" else 0.2)
    assert fig["layout"]["height"] == (170 if present == "true" else 130) + 175 * rows


def _holder(at, key: str):
    """The column that holds the chart ``key``."""
    for column in at.columns:
        for child in column.children.values():
            if getattr(child, "type", "") == "plotly_chart" and chart_key(child.proto.id) == key:
                return column
    raise AssertionError(f"no column holds {key}")


# (page, its specs, tab, chart key, the chart column's share of the row on a desktop)
SIDE_BY_SIDE = [
    ("4_Rotation.py", rotation_spec, "matrix", "rot_t_chart", 0.6),
    ("4_Rotation.py", rotation_spec, "circle", "rot_circle_chart", 0.6),
    ("4_Rotation.py", rotation_spec, "fit", "rot_fit_w_chart", 0.5),
    ("4_Rotation.py", rotation_spec, "fit", "rot_fit_error_chart", 0.5),
    ("5_RoPE.py", rope_spec, "pair", "rope_pair_chart", 0.6),
    ("5_RoPE.py", rope_spec, "extension", "rope_inv_chart", 0.5),
    ("5_RoPE.py", rope_spec, "extension", "rope_turns_chart", 0.5),
    ("3_Binary_vs_sinusoid.py", binary_spec, "counter", "bin_waves", 0.698),
    ("3_Binary_vs_sinusoid.py", binary_spec, "loops", "bin_loop_high", 0.5),
    ("3_Binary_vs_sinusoid.py", binary_spec, "loops", "bin_loop_low", 0.5),
]


@pytest.mark.parametrize(("page", "specs", "tab", "key", "share"), SIDE_BY_SIDE)
def test_charts_side_by_side_on_a_desktop_take_the_full_width_in_presenter_mode(
    page, specs, tab, key, share
):
    # At 1024 px with the sidebar open, T(k)'s heatmap beside its block was ~130 px.
    desk = run_page_on_tab(page, specs, {}, tab, TIMEOUT)
    assert round(_holder(desk, key).proto.weight, 3) == share
    present = run_page_on_tab(page, specs, {"present": "true"}, tab, TIMEOUT)
    assert round(_holder(present, key).proto.weight, 3) == 1.0
