"""Grab the thing itself, for real (issue #21): Chromium clicks a chart and the control
it drives, the address and the chart follow."""

from __future__ import annotations

import pytest
from support.browser import real_errors, wait_for_app

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


def test_clicking_near_a_distance_diagonal_sets_k_and_opens_the_step_distances(server, page):
    # A picker whose points carry rows of a 2-D customdata: the browser sends each row
    # as {"0": k, "1": m, ...}, not as a list (AppTest cannot tell).
    page.goto(f"{server.url}/Binary_vs_sinusoid?bin_tab=distance")
    wait_for_app(page)
    page.wait_for_selector(".js-plotly-plot .nsewdrag")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    box = plot_box(page)
    x, y = box["x"] + box["width"] * 25.5 / 50, box["y"] + box["height"] * 20.5 / 50
    page.mouse.move(x, y)  # near the point (m, n) = (19, 25) of the diagonal k = 6
    page.wait_for_timeout(300)
    page.mouse.click(x, y)
    # The callback writes k into the address at once, the run then opens the tab.
    page.wait_for_function(
        "() => location.search.includes('bin_k=6') && location.search.includes('bin_tab=steps')",
        timeout=30_000,
    )
    wait_for_app(page)
    slider = page.get_by_role("slider", name="Offset k")
    assert slider.input_value() == "6"  # the slider shows the picked k
    assert not page.locator("[data-testid=stException]").count()


def test_on_a_phone_two_taps_on_a_circle_position_set_p(server, browser):
    # Plotly selects the point a tap hovered: the first tap shows it, the second picks it
    # (what the view's line says on a touch screen).
    from bench.first_view import IPHONE

    context = browser.new_context(**IPHONE)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/Rotation?rot_tab=circle")
        wait_for_app(page)
        page.wait_for_selector(".js-plotly-plot .nsewdrag")
        page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        x, y = page.evaluate(
            """() => {
                const gd = document.querySelector('.js-plotly-plot');
                const t = gd._fullData.find(t => t.meta === 'pick');
                const box = gd.getBoundingClientRect(), size = gd._fullLayout._size;
                const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
                return [box.x + size.l + xa.l2p(t.x[20]), box.y + size.t + ya.l2p(t.y[20])];
            }"""
        )
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(1000)  # apart, not a double tap (which resets the zoom)
        page.touchscreen.tap(x, y)
        page.wait_for_function("() => location.search.includes('rot_p=20')", timeout=30_000)
        wait_for_app(page)
        captions = page.locator("[data-testid=stCaptionContainer]").all_inner_texts()
        assert any("tap again" in text for text in captions)
        assert not page.locator("[data-testid=stException]").count()
    finally:
        context.close()


def test_clicking_a_token_of_a_score_map_makes_it_the_query(server, page):
    page.goto(f"{server.url}/Multi_axis_RoPE?mrope_tab=picture")
    wait_for_app(page)
    page.wait_for_selector(".js-plotly-plot .nsewdrag")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    # The third map (M-RoPE interleaved) of 12 x 16 tokens: row 2, column 8 is token 40.
    box = page.evaluate(
        """() => {
            const r = document.querySelectorAll('.js-plotly-plot .nsewdrag')[2]
                .getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }"""
    )
    x = box["x"] + (8 + 0.5) * box["width"] / 16
    y = box["y"] + (2 + 0.5) * box["height"] / 12
    page.mouse.move(x, y)
    page.wait_for_timeout(300)  # hover first: Plotly selects the hovered point on click
    page.mouse.click(x, y)
    page.wait_for_function("() => location.search.includes('mrope_query=40')", timeout=30_000)
    wait_for_app(page)
    star = (
        "() => { const d = document.querySelector('.js-plotly-plot')?._fullData"
        "?.find(t => t.marker?.symbol === 'star'); return d && d.x[0] === 8 && d.y[0] === 2; }"
    )
    page.wait_for_function(star, timeout=30_000)
    assert not page.locator("[data-testid=stException]").count()
    assert not real_errors(page), real_errors(page)
