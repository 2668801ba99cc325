"""Grab the thing itself, for real (issue #21): Chromium clicks a chart and the control
it drives, the address and the chart follow."""

from __future__ import annotations

import pytest
from conftest import real_errors, wait_for_app

pytestmark = pytest.mark.browser

def plot_box(page, index: int = 0) -> dict:
    """The plotting area (axes rectangle) of the index-th chart, in page pixels."""
    return page.evaluate(
        """(i) => {
            const gd = document.querySelectorAll('.js-plotly-plot')[i];
            const r = gd.querySelector('.nsewdrag').getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""",
        index,
    )


def reference_row(page):
    return page.evaluate(
        "() => document.querySelector('.js-plotly-plot')?._fullLayout?.shapes?.[0]?.y0"
    )


def test_clicking_a_similarity_row_sets_the_reference_position(server, page):
    page.goto(f"{server.url}/Heatmap?hm_tab=similarity")
    wait_for_app(page)
    page.wait_for_selector(".js-plotly-plot .nsewdrag")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    assert reference_row(page) == 0
    box = plot_box(page)
    rows = 50  # L = 50 rows, m = 0 at the top
    target = 30
    y = box["y"] + (target + 0.5) * box["height"] / rows
    page.mouse.move(box["x"] + box["width"] * 0.6, y)
    page.wait_for_timeout(300)  # hover first: Plotly selects the hovered point on click
    page.mouse.click(box["x"] + box["width"] * 0.6, y)
    page.wait_for_function("() => location.search.includes('hm_sim_row=30')", timeout=30_000)
    wait_for_app(page)
    page.wait_for_function(
        "() => document.querySelector('.js-plotly-plot')?._fullLayout?.shapes?.[0]?.y0 === 30",
        timeout=30_000,
    )
    box_value = page.get_by_role("spinbutton", name="Reference position r").input_value()
    assert float(box_value) == 30
    assert not page.locator("[data-testid=stException]").count()
    assert not real_errors(page), real_errors(page)
