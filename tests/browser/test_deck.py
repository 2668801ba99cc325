"""The offline deck (issue #32) in Chromium, opened from disk with every request outside
the file refused: the arrow keys walk every step, each step's chart has the live story's
numbers, each control changes its chart (and keeps its own arrow keys), ``#step=N``
opens step N, and a phone's 390 px take every step without sideways scrolling."""

from __future__ import annotations

import numpy as np
import pytest
from support.apptest import run_page
from support.deck import decks  # noqa: F401  (the session fixture)
from support.screen import chart, decode

from ui.plain.story_outline import STEPS
from ui.plain.texts import text

pytestmark = pytest.mark.browser

READ = """() => document.querySelector('.js-plotly-plot')._fullData.map(t => {
  const arr = v => v == null ? null : ArrayBuffer.isView(v) ? Array.from(v)
    : Array.isArray(v) ? v.map(r => ArrayBuffer.isView(r) ? Array.from(r) : r) : v;
  return {type: t.type, x: arr(t.x), y: arr(t.y), z: arr(t.z)};
})"""


class Deck:
    """One page on a deck file; requests other than the file are refused and kept."""

    def __init__(self, browser, path, width: int = 1024, height: int = 768, hash: str = ""):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.url = path.as_uri()
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.route("**/*", self._route)
        self.page.goto(self.url + hash)

    def _route(self, route) -> None:
        if route.request.url.split("#")[0] == self.url:
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def wait_for_step(self, n: int) -> None:
        self.page.wait_for_selector(f"#step-{n}:not([hidden]) .js-plotly-plot .main-svg")
        self.page.wait_for_function(
            "(n) => location.hash === '#step=' + n && document.querySelectorAll("
            "'section.slide:not([hidden])').length === 1",
            arg=n,
        )

    def drawn(self) -> list[dict]:
        return self.page.evaluate(READ)

    def close(self) -> None:
        assert self.outside == [], self.outside
        assert self.errors == [], self.errors
        self.context.close()


@pytest.fixture
def deck_en(browser, decks):  # noqa: F811
    d = Deck(browser, decks["en"])
    yield d
    d.close()


@pytest.fixture(scope="module")
def live() -> dict[int, list[dict]]:
    """The chart of every step of the live story at its defaults (AppTest)."""
    found = {}
    for n, name in enumerate(STEPS, 1):
        at = run_page("0_Start_here.py", {"step": str(n)})
        found[n] = chart(at, f"story_{name}_chart")["data"]
    return found


def _same(drawn, wanted) -> bool:
    wanted = decode(wanted)
    if any(isinstance(v, str) for v in np.ravel(np.asarray(wanted, dtype=object))):
        return list(drawn) == list(wanted)  # a categorical axis: its names
    a, b = np.asarray(drawn, dtype=float), np.asarray(wanted, dtype=float)
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def test_the_arrow_keys_walk_every_step_with_the_live_storys_numbers(deck_en, live):
    page = deck_en.page
    for n, name in enumerate(STEPS, 1):
        deck_en.wait_for_step(n)
        title = page.locator(f"#step-{n} h2").inner_text()
        assert title == text("en", f"story.{name}_title")
        drawn, wanted = deck_en.drawn(), live[n]
        assert [t["type"] for t in drawn] == [t.get("type", "scatter") for t in wanted], name
        for got, want in zip(drawn, wanted, strict=True):
            for axis in ("x", "y", "z"):
                if axis in want:
                    assert _same(got[axis], want[axis]), (name, axis)
        # The whole step on a 1024 x 768 projector: the chart ends above the fold.
        bottom = page.evaluate(f"document.querySelector('#step-{n} .chart')"
                               ".getBoundingClientRect().bottom")  # fmt: skip
        assert bottom <= 768, (name, bottom)
        page.locator(f"#step-{n} h2").click()  # focus the page, not a control
        page.keyboard.press("ArrowRight")
    deck_en.wait_for_step(len(STEPS))  # the last step stays
    page.keyboard.press("ArrowLeft")
    deck_en.wait_for_step(len(STEPS) - 1)


def test_each_control_changes_its_chart_and_keeps_its_arrow_keys(deck_en):
    page = deck_en.page
    moved = 0
    for n in range(1, len(STEPS) + 1):
        page.evaluate("(n) => { location.hash = '#step=' + n; }", n)
        deck_en.wait_for_step(n)
        for control in page.locator(f"#step-{n} [data-control]").all():
            page.evaluate("window.__before = JSON.stringify((" + READ + ")())")
            if control.get_attribute("type") == "checkbox":
                control.click()
            else:
                control.focus()
                at_end = control.input_value() == control.get_attribute("max")
                page.keyboard.press("Home" if at_end else "End")
                value = control.input_value()
                page.keyboard.press("ArrowRight" if at_end else "ArrowLeft")
                assert control.input_value() != value  # the slider took the arrow key
            page.wait_for_function("JSON.stringify((" + READ + ")()) !== window.__before")
            deck_en.wait_for_step(n)  # the arrow key moved the slider, not the step
            moved += 1
    assert moved == 14  # the story's controls: one per step, two on step 9


def test_the_address_opens_a_step_and_back_next_move(browser, decks):  # noqa: F811
    d = Deck(browser, decks["en"], hash="#step=7")
    d.wait_for_step(7)
    d.page.locator("#step-7 button.next").click()
    d.wait_for_step(8)
    d.page.locator("#step-8 button.back").click()
    d.page.locator("#step-7 button.back").click()
    d.wait_for_step(6)
    d.page.evaluate("location.hash = '#step=1'")
    d.wait_for_step(1)
    assert d.page.locator("#step-1 button.back").is_disabled()
    d.page.evaluate("location.hash = '#step=13'")
    d.wait_for_step(13)
    assert d.page.locator("#step-13 button.next").is_disabled()
    d.close()


def test_the_chinese_deck_speaks_chinese(browser, decks):  # noqa: F811
    d = Deck(browser, decks["zh"], hash="#step=13")
    d.wait_for_step(13)
    assert d.page.evaluate("document.documentElement.lang") == "zh"
    assert d.page.locator("#step-13 h2").inner_text() == text("zh", "story.pictures_title")
    label = d.page.locator("#step-13 figcaption.alt").text_content()
    assert label == text("zh", "story.alt_pictures")
    d.close()


def test_a_phone_scrolls_no_step_sideways(browser, decks):  # noqa: F811
    d = Deck(browser, decks["en"], width=390, height=844)
    for n in range(1, len(STEPS) + 1):
        d.page.evaluate("(n) => { location.hash = '#step=' + n; }", n)
        d.wait_for_step(n)
        assert d.page.evaluate("document.documentElement.scrollWidth") <= 390, n
        assert d.page.locator(f"#step-{n} figcaption.alt").text_content()
    d.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_step_of_the_deck_passes_axe_and_names_its_chart(browser, decks, lang):  # noqa: F811
    """Issue 33 on the offline deck: 0 axe-core violations of the WCAG 2.0-2.2 A/AA rules
    on every step, the page in the reader's language, each chart named by the step's
    text alternative (the live story's ``story.alt_*``)."""
    from test_accessibility import axe_violations

    d = Deck(browser, decks[lang])
    page = d.page
    assert page.evaluate("document.documentElement.lang") == lang
    found = {}
    for n, name in enumerate(STEPS, 1):
        page.goto(f"{d.url}#step={n}")
        d.wait_for_step(n)
        found.update({f"{name}: {line}": 1 for line in axe_violations(page)})
        alt = page.locator(f"#step-{n} figcaption.alt").text_content()
        assert alt == text(lang, f"story.alt_{name}"), name
        hidden = "svg => svg.getAttribute('aria-hidden')"
        page.wait_for_function(  # the drawing itself is not read out
            f"() => [...document.querySelectorAll('#step-{n} svg.main-svg')]"
            ".every(s => s.getAttribute('aria-hidden') === 'true')"
        )
        assert {page.locator(f"#step-{n} svg.main-svg").first.evaluate(hidden)} == {"true"}
    d.close()
    assert not found, list(found)
