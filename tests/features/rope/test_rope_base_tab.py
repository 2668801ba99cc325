"""The RoPE page's "Base for a context" tab: every number it shows is posenc's."""

from __future__ import annotations

import numpy as np
import pytest
from support.apptest import Page
from support.screen import chart, decode

import posenc
from ui.features.rope import specs as sp
from ui.features.rope.data_models import PRESETS
from ui.features.rope.tab_base import number
from ui.plain.grids import MAX_LINE_POINTS
from ui.plain.texts import LANGUAGES, text

PAGE = Page("5_RoPE.py", sp)


def open_base(query: dict | None = None, lang: str = "en"):
    return PAGE.open({**(query or {}), "lang": lang}, "base")


def prose(at) -> list[str]:
    return [md.value for md in at.markdown]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_metric_is_posenc_bound(lang):
    at = open_base({"rope_bound_len": "65536", "rope_bound_dim": "d64"}, lang)
    (metric,) = [m for m in at.metric if m.label == text(lang, "rope.bound_metric")]
    assert metric.value == number(posenc.rope_base_lower_bound(65536, 64))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sentence_names_first_failing_offset(lang):
    at = open_base(lang=lang)  # defaults: L = 4096, d = 128, b = 10 000 (Llama 2)
    failure = posenc.rope_base_failure(10000.0, 4096, 128)
    bound = posenc.rope_base_lower_bound(4096, 128)
    expected = text(
        lang, "rope.bound_below", base=number(10000), bound=number(bound), m=number(failure)
    )
    assert expected in prose(at)
    assert (failure, round(bound)) == (1707, 26952)


def test_base_above_bound_can_still_fail():
    base = 27000.0
    bound = posenc.rope_base_lower_bound(4096, 128)
    failure = posenc.rope_base_failure(base, 4096, 128)
    assert base > bound and failure is not None
    at = open_base({"rope_bound_base": "27000"})
    expected = text(
        "en", "rope.bound_above", base=number(base), bound=number(bound), m=number(failure)
    )
    assert expected in prose(at)


def test_safe_base_says_so():
    assert posenc.rope_base_failure(1e5, 4096, 128) is None
    at = open_base({"rope_bound_base": "100000"})
    expected = text("en", "rope.bound_safe", base=number(1e5), length=number(4096))
    assert expected in prose(at)
    assert len(chart(at, "rope_bound_chart")["data"]) == 1  # no failure marked


def test_failure_marked_on_chart():
    at = open_base()
    marker = chart(at, "rope_bound_chart")["data"][1]
    failure = posenc.rope_base_failure(10000.0, 4096, 128)
    sums = posenc.rope_base_sums(10000.0, 4096, 128)
    assert list(decode(marker["x"])) == [failure]
    assert decode(marker["y"])[0] == pytest.approx(sums[failure]) and sums[failure] < 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_rows_are_posenc(lang):
    at = open_base(lang=lang)
    (table,) = [md for md in prose(at) if md.startswith("|")]
    shown = {}
    for line in table.splitlines()[2:]:
        name, *cells = [cell.strip() for cell in line.strip("|").split("|")]
        shown[name] = cells
    expected = {}
    for model in PRESETS.values():
        d = int(model.head_dim * model.partial_rotary_factor)
        if model.context > posenc.rope_base.TABLE_PLAN.get(d, 0):
            continue
        failure = posenc.rope_base_failure(model.base, model.context, d)
        expected[model.name] = [
            number(model.context),
            number(model.base),
            number(posenc.rope_base_lower_bound(model.context, d)),
            text(lang, "rope.bound_none") if failure is None else number(failure),
        ]
    assert shown == expected
    assert shown["Llama 2 7B"] == ["4,096", "10,000", "26,952", "1,707"]
    assert "GPT-NeoX 20B" not in shown  # 24 rotated dims: no stored bound


@pytest.mark.parametrize("lang", LANGUAGES)
def test_downsampled_chart_keeps_minimum(lang):
    query = {"rope_bound_len": "1048576", "rope_bound_dim": "d256", "rope_bound_base": "10000"}
    at = open_base(query, lang)
    curve = chart(at, "rope_bound_chart")["data"][0]
    x, y = decode(curve["x"]), decode(curve["y"])
    sums = posenc.rope_base_sums(10000.0, 1048576, 256)
    assert len(y) <= MAX_LINE_POINTS
    assert y.min() == sums.min() and y.max() == sums.max()
    assert np.array_equal(y, sums[x])
    block = -(-sums.size // (MAX_LINE_POINTS // 2))
    notice = text(lang, "rope.bound_envelope", count=number(sums.size), block=number(block))
    assert notice in [c.value for c in at.caption]


def test_short_curve_drawn_whole_without_notice():
    at = open_base({"rope_bound_len": "2048"})
    y = decode(chart(at, "rope_bound_chart")["data"][0]["y"])
    np.testing.assert_array_equal(y, posenc.rope_base_sums(10000.0, 2048, 128))
    assert not any("block" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tab_says_the_sidebars_settings_do_not_apply_here(lang):
    """The sidebar keeps showing the page's d and b (d = 64 by default) while this tab
    uses its own (d = 128 by default): one line says so."""
    at = open_base(lang=lang)
    assert text(lang, "rope.bound_own") in [c.value for c in at.caption]
