"""The story in a real browser: the arrow keys move through the steps, and the address
follows, so a presenter can copy the link of any slide."""

from urllib.parse import parse_qsl, urlparse

import pytest
from support.browser import real_errors, wait_for_app

from ui.features.story.view import STEPS
from ui.plain.texts import text

pytestmark = pytest.mark.browser

CHART = "[data-testid=stPlotlyChart] .main-svg"


def step_in_address(page) -> str | None:
    return dict(parse_qsl(urlparse(page.url).query)).get("step")


def wait_for_step(page, n: int) -> None:
    page.wait_for_function(
        "(n) => new URLSearchParams(location.search).get('step') === n", arg=str(n)
    )
    wait_for_app(page)
    heading = page.locator("[data-testid=stMain] h2").first
    heading.filter(has_text=text("en", f"story.{STEPS[n - 1]}_title")).wait_for(timeout=60_000)
    page.locator(CHART).first.wait_for(timeout=60_000)


def test_the_arrow_keys_move_the_step_and_the_address(server, page):
    page.goto(server.url + "/Start_here?step=3")
    wait_for_step(page, 3)
    page.locator("[data-testid=stMain] h2").first.click()  # focus the page, not a widget
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 4)
    for n in (3, 2):
        page.keyboard.press("ArrowLeft")
        wait_for_step(page, n)
    assert step_in_address(page) == "2"
    assert page.locator("[data-testid=stException]").count() == 0
    assert real_errors(page) == []


def test_the_left_key_on_the_first_step_stays_there(server, page):
    page.goto(server.url + "/Start_here")
    wait_for_step(page, 1)
    page.locator("[data-testid=stMain] h2").first.click()
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(1500)
    wait_for_app(page)
    assert step_in_address(page) == "1"
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 2)
