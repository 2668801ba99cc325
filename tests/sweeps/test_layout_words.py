"""No text places a chart "left" or "right" of another (CONTRIBUTING.md, page layout).

Charts side by side are drawn with ``controls.beside``, which stacks them one above the
other in presenter mode and on a phone: a sentence saying "the chart on the left" is
false there. Directions inside one chart (its left columns, a curve's right end) stay
true in every layout and are allowed.
"""

from __future__ import annotations

import re

import pytest

from ui.plain.texts import LANGUAGES, catalogue

_CHART = r"(?:charts?|plots?|panels?|figures?|graphs?|heatmaps?|subplots?)"
PLACED = {
    "en": re.compile(
        rf"\b(?:left|right)(?:-hand)?\s+(?:\w+\s+)?{_CHART}\b"
        rf"|\b{_CHART}\s+(?:on|to|at)\s+the\s+(?:left|right)\b",
        re.IGNORECASE,
    ),
    "zh": re.compile(r"[左右](?:边|侧|方)?的?(?:子图|图表?|面板|热力图)"),
}


@pytest.mark.parametrize(
    ("lang", "sentence", "placed"),
    [
        ("en", "The chart on the left shows the sines.", True),
        ("en", "Compare it with the right-hand plot.", True),
        ("en", "the left heatmap and the right one", True),
        ("en", "The left columns change fast, the right ones slowly.", False),
        ("en", "the wave starts −C/B to the right of sin(Bx)", False),
        ("zh", "左图是正弦，右侧的热力图是余弦。", True),
        ("zh", "见右边的面板", True),
        ("zh", "左边的列随位置变化快，右边的列变化慢", False),
    ],
)
def test_the_check_finds_a_chart_placed_left_or_right(lang, sentence, placed):
    assert bool(PLACED[lang].search(sentence)) is placed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_places_a_chart_left_or_right_of_another(lang):
    texts = catalogue(lang)
    assert len(texts) > 500  # the whole catalogue, not an empty one
    found = {key: m.group(0) for key, value in texts.items() if (m := PLACED[lang].search(value))}
    assert found == {}
