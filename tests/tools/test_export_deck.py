"""The offline deck (issue #32) as plain functions: the stops of each control, the
projector type replayed, Markdown and formulas without a network, escaping, the links,
the page's download; then the two files ``tools/export_deck.py`` writes (built once)."""

from __future__ import annotations

import json
import re
from html import escape
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.io.json import to_json_plotly
from support.apptest import run_page
from support.deck import APP_URL, decks  # noqa: F401  (the session fixture)
from support.screen import decode

from ui.features.story import page as story_page
from ui.features.story import specs, view
from ui.plain import deck
from ui.plain.deck_html import deck_html, formula, markdown, mathml, payload
from ui.plain.params import BoolParam, FloatParam, IntParam
from ui.plain.style import presenter_fonts
from ui.plain.texts import text
from ui.shared import menu

BUILDERS = dict(
    figs=view.Uncached(view.figs), wl_figs=view.Uncached(view.wl_figs),
    home_heatmap=view.home_heatmap.uncached,
)  # fmt: skip


def recorded(name: str, lang: str = "en") -> deck.Step:
    return deck.record_step(name, view.VIEWS[name], lang, chosen=specs.DECK_STOPS, **BUILDERS)


def at_default(name: str, lang: str = "en") -> deck.Recorder:
    surface = deck.Recorder(lang, {}, **BUILDERS)
    surface.deeper = view.VIEWS[name](surface)
    return surface


# ------------------------------------------------------------------ stops


def test_a_short_range_stops_at_every_value():
    values, sampled = deck.stops(IntParam("x", 0, 30, 4))
    assert values == list(range(31)) and not sampled


def test_a_long_range_is_sampled_evenly_with_its_ends_and_default():
    values, sampled = deck.stops(IntParam("x", 1, 500, 33))
    assert sampled and values[0] == 1 and values[-1] == 500 and 33 in values
    assert len(values) <= deck.MAX_STOPS + 1 and values == sorted(set(values))


def test_a_float_range_stops_on_its_step():
    values, sampled = deck.stops(FloatParam("s", 1.0, 32.0, 4.0, step=0.5))
    assert sampled and all((v * 2).is_integer() for v in values) and 4.0 in values


def test_a_toggle_stops_off_and_on():
    assert deck.stops(BoolParam("b", False)) == ([False, True], False)


def test_chosen_stops_off_the_range_or_step_are_refused():
    with pytest.raises(ValueError, match="outside"):
        deck.stops(IntParam("x", 8, 128, 32, step=8), (8, 12))
    with pytest.raises(ValueError, match="outside"):
        deck.stops(IntParam("x", 0, 10, 5), (0, 11))


def test_every_story_control_keeps_its_default_among_few_stops():
    for spec in specs.CONTROLS:
        values, sampled = deck.stops(spec, specs.DECK_STOPS.get(spec.key))
        assert spec.default in values, spec.key
        assert 2 <= len(values) <= deck.MAX_STOPS, spec.key
        assert sampled == (spec.key in specs.DECK_STOPS), spec.key


def test_a_step_with_two_controls_has_a_state_for_each_pair_of_stops():
    step = recorded("weights")
    k, seed = step.controls
    assert len(step.states) == len(k.stops) * len(seed.stops)
    state = step.state_at([k.stops.index(7), seed.stops.index(2)])
    assert state.values == {specs.W_K.key: 7, specs.W_SEED.key: 2}
    assert step.default.values == {specs.W_K.key: 4, specs.W_SEED.key: 0}


# ------------------------------------------------------------------ projector type


def _clean(value):
    """Plotly JSON without empty objects (an unset title is ``{}`` or absent)."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if v != {}}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


@pytest.mark.parametrize("name", ["naive", "clock", "table", "shift"])
def test_replayed_projector_type_equals_presenter_fonts_at_every_stop(name):
    fonts, wanted, got = deck.ProjectorType(), [], []

    class Both(deck.Recorder):
        def plot(self, fig, name):
            wanted.append(json.loads(to_json_plotly(presenter_fonts(go.Figure(fig)))))
            got.append(json.loads(to_json_plotly(fonts.apply(fig))))

    first = Both("en", {}, **BUILDERS)
    view.VIEWS[name](first)
    spec = first.asked[0][0]
    for value in deck.stops(spec, specs.DECK_STOPS.get(spec.key))[0]:
        view.VIEWS[name](Both("en", {spec.key: value}, **BUILDERS))
    assert len(got) > 5 and len(fonts._changes) < len(got)  # replayed, not rerun
    assert [_clean(g) for g in got] == [_clean(w) for w in wanted]


def test_a_figure_of_another_shape_gets_presenter_fonts_of_its_own():
    fonts = deck.ProjectorType()
    small = go.Figure(go.Scatter(x=[0, 1], y=[1, 2]), layout=dict(font_size=13))
    large = go.Figure(go.Scatter(x=[0, 1], y=[3, 4]), layout=dict(font_size=30))
    fonts.apply(small)
    assert fonts.apply(large)["layout"]["font"]["size"] == 30
    assert fonts.apply(go.Figure(small))["layout"]["font"]["size"] == 18


# ------------------------------------------------------------------ words and formulas


def test_markdown_escapes_text_and_writes_inline_math_as_mathml():
    out = markdown("a <b>bold</b> & $W_q$ here\n\nsecond")
    assert out.startswith("<p>a &lt;b&gt;bold&lt;/b&gt; &amp; <math") and "<b>" not in out
    assert out.count("<p>") == 2 and "<msub><mi>W</mi><mi>q</mi></msub>" in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_formula_and_line_of_the_story_becomes_mathml_with_no_latex_left(lang):
    for name in view.STEPS:
        surface = at_default(name, lang)
        for html in (formula(surface.formula), markdown(surface.lead_text)):
            assert "\\" not in html and "$" not in html, (name, html[:200])
        assert formula(surface.formula).startswith("<math")


def test_a_long_formula_is_cut_between_its_terms_only():
    tex = r"a = 1,\qquad \frac{b\qquad c}{2},\qquad d"
    assert formula(tex).count("<math") == 3
    assert formula(tex) == "".join(
        mathml(part, block=True) for part in ("a = 1,", r"\frac{b\qquad c}{2},", "d")
    )


def _fake_step(title: str, lead: str) -> deck.Step:
    fig = go.Figure(go.Scatter(x=[0, 1], y=[0.5, 1.5], name=lead))
    state = deck.State({}, lead, fig.to_plotly_json(), r"x^2", view.Deeper("heatmap", "hm_tab",
                       "table", {"seq_len": "40"}))  # fmt: skip
    return deck.Step("order", title, lead, [], [state])


HOSTILE = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'


def test_no_text_can_end_the_deck_script_or_add_markup():
    html = deck_html([_fake_step(HOSTILE, HOSTILE)], "en")
    assert "<script>alert" not in html and "<img" not in html
    data = html.split('id="deck-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data
    pool = json.loads(data)["pool"]  # the text is there, as text
    assert any(isinstance(v, list) and v[0].get("name") == HOSTILE for v in pool)
    assert f"<p>{escape(HOSTILE)}</p>" in pool


def test_without_an_app_address_the_deck_has_no_go_deeper_link():
    step = _fake_step("t", "lead")
    assert 'class="deeper-link"' not in deck_html([step], "en")
    link = view.deck_link(APP_URL, "en")
    assert f'href="{APP_URL}/Heatmap?' in deck_html([step], "en", link=link)
    assert '"link"' in payload([step], link) and '"link"' not in payload([step], None)


@pytest.mark.slow  # AppTest: every step's live page
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_recorded_step_says_and_links_what_the_page_does(lang):
    link = view.deck_link(APP_URL + "/", lang)
    for n, name in enumerate(view.STEPS, 1):
        at = run_page("0_Start_here.py", {"step": str(n), "lang": lang})
        surface = at_default(name, lang)
        assert at.markdown[1].value == surface.lead_text, name  # the two lines
        assert [f.value for f in at.latex] == [f"$$\n{surface.formula}\n$$"], name
        live = next(el for el in at.get("page_link") if el.proto.label.startswith(("Go", "深入")))
        label, href = link(surface.deeper)
        parts = urlsplit(href)
        entry = next(e for e in menu.PAGES if e.url_path == "/" + live.proto.page)
        assert f"{parts.scheme}://{parts.netloc}{parts.path}" == APP_URL + entry.url_path
        assert dict(parse_qsl(parts.query)) == dict(parse_qsl(live.proto.query_string)), name
        assert label == live.proto.label


# ------------------------------------------------------------------ the page's download


def test_the_story_page_offers_the_deck_as_a_download():
    for lang in ("en", "zh"):
        at = run_page("0_Start_here.py", {"step": "3", "lang": lang})
        buttons = at.get("download_button")
        assert [b.proto.label for b in buttons] == [text(lang, "story.deck_download")]


def test_the_download_is_the_deck_of_the_readers_language(monkeypatch):
    asked = []
    monkeypatch.setattr(story_page, "deck_file", lambda lang: asked.append(lang) or f"<{lang}>")
    story_page.deck_bytes.clear()
    try:
        assert story_page.deck_download("zh") == b"<zh>"
        assert story_page.deck_download("zh") == b"<zh>" and asked == ["zh"]  # kept
    finally:
        story_page.deck_bytes.clear()


# ------------------------------------------------------------------ the two files


def _data(path) -> dict:
    html = path.read_text(encoding="utf-8")
    return json.loads(html.split('id="deck-data">', 1)[1].split("</script>", 1)[0])


@pytest.mark.slow  # builds both decks (about half a minute)
def test_both_files_stand_alone_under_8_mb_in_their_language(decks):  # noqa: F811
    for lang in ("en", "zh"):
        html = decks[lang].read_text(encoding="utf-8")
        assert decks[lang].stat().st_size <= 8 * 1024 * 1024
        assert html.startswith(f'<!DOCTYPE html><html lang="{lang}">')
        assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", html)
        hrefs = re.findall(r'class="deeper-link" href="([^"]+)"', html)
        assert len(hrefs) == len(view.STEPS) and all(h.startswith(APP_URL) for h in hrefs)
        assert html.count('<section class="slide"') == len(view.STEPS)
        assert html.count('<figcaption class="alt">') == len(view.STEPS)  # text alternatives


def _same(a, b) -> bool:
    """Two trace arrays (typed-array JSON, lists or arrays) hold the same values."""
    a, b = np.asarray(decode(a)), np.asarray(decode(b))
    if a.dtype.kind in "fiub" and b.dtype.kind in "fiub":
        return a.shape == b.shape and np.array_equal(a.astype(float), b.astype(float),
                                                      equal_nan=True)  # fmt: skip
    return a.tolist() == b.tolist()  # names on a categorical axis


@pytest.mark.slow
def test_each_step_in_the_file_is_the_step_recorded_in_order(decks):  # noqa: F811
    data = _data(decks["en"])
    pool = data["pool"]
    assert [s["name"] for s in data["steps"]] == list(view.STEPS)
    for name, step in zip(view.STEPS, data["steps"], strict=True):
        surface = at_default(name)
        flat = 0
        for c in step["controls"]:
            flat = flat * len(c["stops"]) + c["default"]
        state = step["states"][flat]
        assert pool[state["lead"]] == markdown(surface.lead_text)
        assert pool[state["formula"]] == formula(surface.formula)
        drawn, wanted = pool[state["data"]], surface.figure["data"]
        assert len(drawn) == len(wanted)
        for a, b in zip(drawn, wanted, strict=True):
            for axis in ("x", "y", "z"):
                if axis in b:
                    assert _same(a[axis], b[axis]), (name, axis)


@pytest.mark.slow
def test_a_sampled_control_says_so_on_its_step_in_both_languages(decks):  # noqa: F811
    for lang in ("en", "zh"):
        html = decks[lang].read_text(encoding="utf-8")
        notes = []
        for name in view.STEPS:
            for spec, _, label in at_default(name).asked:
                values, sampled = deck.stops(spec, specs.DECK_STOPS.get(spec.key))
                if sampled:
                    ends = {"lo": f"{values[0]:g}", "hi": f"{values[-1]:g}"}
                    notes.append(text(lang, "story.deck_sampled", name=text(lang, f"story.{label}"),
                                      count=len(values), **ends))  # fmt: skip
        assert len(notes) == len(specs.DECK_STOPS)
        assert html.count('<p class="sampled">') == len(notes)
        assert all(f'<p class="sampled">{escape(note)}</p>' in html for note in notes)
