"""Every chart of every view has a text alternative (issue #33): right after each Plotly
chart, in the same column, the hidden paragraph ``ui.shared.a11y.chart_alt`` draws, in
the reader's language, with its numbers filled in. ``ui.shared.layout.plot(..., alt=...)``
draws it; a chart drawn without ``alt`` fails here."""

from __future__ import annotations

import html
import re

import pytest
from support.apptest import run_page
from support.views import PAGE_TAB_IDS, PAGE_TABS, script

from ui.shared.a11y import ALT_CLASS

TIMEOUT = 120
ALT = re.compile(rf'^<p class="{ALT_CLASS}">(.+)</p>$', re.S)
CJK = re.compile(r"[\u4e00-\u9fff]")


def in_order(node) -> list:
    """Every element under ``node``, depth first, each followed by its children's."""
    found = []
    for child in getattr(node, "children", {}).values():
        found.append(child)
        found += in_order(child)
    return found


def siblings_after_charts(at) -> list[tuple[str, object]]:
    """(chart id, the element drawn right after it in its block, or None) per chart."""
    pairs = []
    for block in [at.main, *in_order(at.main)]:
        children = list(getattr(block, "children", {}).values())
        for i, child in enumerate(children):
            if getattr(child, "type", "") == "plotly_chart":
                after = children[i + 1] if i + 1 < len(children) else None
                pairs.append((child.proto.id, after))
    return pairs


def alternative(element) -> str | None:
    """The text of a chart alternative, or None when ``element`` is not one."""
    if element is None or getattr(element, "type", "") != "html":
        return None
    found = ALT.match(element.proto.body)
    return html.unescape(found.group(1)) if found else None


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("entry", "name", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_every_chart_is_followed_by_its_text_alternative(entry, name, query, lang):
    at = run_page(script(entry), {**query, "lang": lang}, TIMEOUT)
    pairs = siblings_after_charts(at)
    missing = [chart for chart, after in pairs if not alternative(after)]
    assert missing == [], f"charts without a text alternative: {missing}"
    for _, after in pairs:
        text = alternative(after)
        assert "{" not in text and "}" not in text, text  # every field filled in
        assert len(text.split()) >= 8 or len(text) >= 25, text  # a sentence, not a label
        assert bool(CJK.search(text)) == (lang == "zh"), text  # the reader's language


def test_a_chart_without_alt_is_found(monkeypatch):
    """The sweep above can fail: a page whose chart skips ``alt`` shows up as missing."""
    from ui.shared import layout

    drawn = layout.plot

    def without_alt(fig, key, where=layout.st, *, on_select=None, alt=None):
        return drawn(fig, key, where, on_select=on_select)

    monkeypatch.setattr(layout, "plot", without_alt)
    monkeypatch.setattr("ui.shared.controls.plot", without_alt)
    at = run_page(None, {}, TIMEOUT)
    pairs = siblings_after_charts(at)
    assert pairs and all(alternative(after) is None for _, after in pairs)
