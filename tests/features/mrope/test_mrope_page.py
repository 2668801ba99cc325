"""The multi-axis RoPE page in AppTest: what is particular to it. The position rows, the
pairs each axis turns and the four score maps against posenc and a direct computation,
the overlap notice, a click moving the query, and the numbers the sentences quote."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from support.apptest import Page
from support.screen import caption_list, chart, chart_key, decode

import posenc
from ui.features.mrope import data
from ui.features.mrope import specs as sp
from ui.plain.pick import PICK
from ui.plain.texts import text

MROPE = Page("7_Multi_axis_RoPE.py", sp, timeout=120)
# A small image: 8 x 12 patches, 4 x 6 tokens.
SMALL = {"mrope_h": "8", "mrope_w": "12", "mrope_before": "3", "mrope_after": "2"}
D, HALF = 128, 64


def opened(query: dict | None = None, tab: str | None = None, lang: str = "en") -> AppTest:
    at = MROPE.open({**(query or {}), "lang": lang}, tab)
    assert not at.warning, [w.value for w in at.warning]
    return at


def traces_by_name(fig: dict) -> dict[str, dict]:
    return {trace.get("name"): trace for trace in fig["data"] if trace.get("name")}


def infos(at: AppTest) -> list[str]:
    return [i.value for i in at.info]


# ------------------------------------------------------------------ positions


@pytest.mark.parametrize("frames", [1, 3])
def test_the_drawn_position_rows_are_posencs(frames):
    at = opened({**SMALL, "mrope_t": str(frames)})
    traces = traces_by_name(chart(at, "mrope_positions_chart"))
    kind = "video" if frames > 1 else "image"
    ids = posenc.mrope_position_ids([("text", 3), (kind, (frames, 8, 12)), ("text", 2)])
    for axis, name in enumerate(("time", "height", "width")):
        trace = traces[text("en", f"mrope.axis_{name}")]
        np.testing.assert_array_equal(decode(trace["x"]), np.arange(ids.shape[1]))
        np.testing.assert_array_equal(decode(trace["y"]), ids[axis])


def test_the_text_after_the_image_resumes_at_the_larger_side():
    at = opened(SMALL)
    # 3 text tokens, then a 4 x 6 token grid: the text resumes at 3 + max(4, 6) = 9.
    ids = posenc.mrope_position_ids([("text", 3), ("image", (1, 8, 12)), ("text", 2)])
    assert ids[0, 3 + 24] == 9
    shown = text("en", "mrope.positions_notice", resume=9, start=3, rows=4, cols=6, tokens=24)
    assert shown in caption_list(at)
    fig = chart(at, "mrope_positions_chart")
    assert text("en", "mrope.resume_mark", p=9) in [a["text"] for a in fig["layout"]["annotations"]]
    assert [s["x0"] for s in fig["layout"]["shapes"]] == [3 + 24 - 0.5]


@pytest.mark.parametrize("frames", [1, 5, 6, 7, 12])
def test_the_overlap_shows_exactly_when_frames_exceed_the_larger_side(frames):
    at = opened({**SMALL, "mrope_t": str(frames)})  # larger side: 12 / 2 = 6 tokens
    ids = posenc.mrope_position_ids([("text", 3), ("video", (frames, 8, 12)), ("text", 2)])
    image, resume = ids[0, 3 : 3 + frames * 24], 3 + 6
    late = int(np.count_nonzero(image >= resume))
    fig = chart(at, "mrope_positions_chart")
    crosses = traces_by_name(fig).get(text("en", "mrope.overlap_mark", p=resume))
    if frames <= 6:
        assert late == 0 and not infos(at) and crosses is None
        return
    assert late == (frames - 6) * 24  # every token of the frames from the 7th on
    notice = text("en", "mrope.overlap_notice", t=frames, side=6, last=3 + frames - 1,
                  resume=resume, overlap=late)  # fmt: skip
    assert infos(at) == [notice]
    assert (decode(crosses["y"]) >= resume).all() and len(decode(crosses["y"])) == late


def test_a_long_video_is_drawn_one_token_in_a_step_and_says_so():
    at = opened({"mrope_t": "32", "mrope_h": "64", "mrope_w": "64"})
    n = 4 + 32 * 32 * 32 + 4
    step = math.ceil(n / 5000)
    assert text("en", "mrope.positions_sampled", step=step, n=n) in caption_list(at)
    trace = traces_by_name(chart(at, "mrope_positions_chart"))["time"]
    assert len(decode(trace["x"])) <= 5000


# ------------------------------------------------------------------ pairs


def expected_axes(layout: str) -> np.ndarray:
    """The rule of each layout, written out (not posenc's code)."""
    j = np.arange(HALF)
    if layout == "chunked":  # [16, 24, 24]
        return np.where(j < 16, 0, np.where(j < 40, 1, 2))
    axes = np.zeros(HALF, dtype=int)  # [24, 20, 20]
    axes[(j % 3 == 1) & (j < 60)] = 1
    axes[(j % 3 == 2) & (j < 60)] = 2
    return axes


@pytest.mark.parametrize("layout", ["chunked", "interleaved"])
def test_each_axis_gets_the_pairs_of_its_layout(layout):
    np.testing.assert_array_equal(data.axis_of_pairs(layout), expected_axes(layout))
    at = opened({"mrope_base": "10000"}, tab="pairs")
    traces = traces_by_name(chart(at, f"mrope_pairs_{layout}_chart"))
    theta = 10000.0 ** (-2 * np.arange(HALF) / D)
    for axis, name in enumerate(("time", "height", "width")):
        trace = traces[text("en", f"mrope.axis_{name}")]
        pairs = np.flatnonzero(expected_axes(layout) == axis)
        np.testing.assert_array_equal(decode(trace["x"]), pairs)
        np.testing.assert_allclose(decode(trace["y"]), 2 * np.pi / theta[pairs], rtol=1e-12)
        assert trace["marker"]["symbol"]  # the axis by its marker too, not colour alone


def test_the_pairs_sentences_quote_the_computed_wavelengths_and_angle():
    at = opened(tab="pairs")  # base 1e6, a 16-token-wide image
    lam = 2 * np.pi / 1e6 ** (-2 * np.arange(HALF) / D)
    degrees = math.degrees(15 * 2 * np.pi / lam[40])
    chunked = text("en", "mrope.pairs_notice_chunked", t0=0, t1=15, w0=40, w1=63,
                   fast=f"{lam[0]:.3g}", slow=f"{lam[15]:.3g}", cols=16,
                   deg=f"{degrees:.2g}")  # fmt: skip
    assert chunked in caption_list(at)
    assert "6.28 to 160 positions" in chunked and "at most 0.15°" in chunked
    inter = text("en", "mrope.pairs_notice_interleaved", inter=f"{lam[2]:.3g}",
                 chunk=f"{float(f'{lam[40]:.3g}'):,.0f}")  # fmt: skip
    assert inter in caption_list(at) and "35,300" in inter


# ------------------------------------------------------------------ the picture


def rotate(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Pair j = (x_j, x_{j+64}) turned by angles[..., j], as a 2 x 2 rotation."""
    a, b = x[..., :HALF], x[..., HALF:]
    c, s = np.cos(angles), np.sin(angles)
    return np.concatenate([a * c - b * s, b * c + a * s], axis=-1)


def direct_maps(rows: int, cols: int, base: float, query: int, q, k) -> dict:
    """The four score maps from the definitions, one token at a time."""
    y, x = np.divmod(np.arange(rows * cols), cols)
    theta = base ** (-2 * np.arange(HALF) / D)
    vit = base ** (-2 * np.arange(32) / 64)

    def angles(method, n):
        if method == "raster":
            return (y[n] * cols + x[n]) * theta
        if method == "axial":
            return np.concatenate([y[n] * vit, x[n] * vit])
        per_axis = np.array([0, y[n], x[n]])  # one frame: time 0 (the image starts at 0)
        return per_axis[expected_axes(method)] * theta

    maps = {}
    for method in data.METHODS:
        rq = rotate(q, angles(method, query))
        keys = [rotate(k, angles(method, n)) @ rq for n in range(rows * cols)]
        maps[method] = np.array(keys).reshape(rows, cols) / math.sqrt(D)
    return maps


def map_panels(fig: dict) -> list[np.ndarray]:
    return [decode(tr["z"]) for tr in fig["data"] if tr["type"] == "heatmap"]


@pytest.mark.parametrize(("query", "base", "kind"), [(87, 1e6, "random"), (0, 100.0, "same")])
def test_the_four_maps_are_the_scores_from_the_definitions(query, base, kind):
    at = opened({"mrope_query": str(query), "mrope_base": repr(base),
                 "mrope_content": kind, "mrope_seed": "5"}, tab="picture")  # fmt: skip
    q, k = data.content(5, kind)
    rng = np.random.default_rng([5, 0])  # the RoPE page's "random" content
    np.testing.assert_array_equal(q, rng.standard_normal(D))
    expected = direct_maps(12, 16, base, query, q, k)
    found = data.score_maps(12, 16, base, query, kind, 5)
    drawn = map_panels(chart(at, "mrope_picture_chart"))
    for method, panel in zip(data.METHODS, drawn, strict=True):
        np.testing.assert_allclose(found.maps[method], expected[method], atol=1e-10)
        np.testing.assert_allclose(panel, expected[method], atol=1e-5)
    if kind == "same":  # k = q: every map peaks at the query itself
        for method in data.METHODS:
            assert np.argmax(expected[method]) == query


def test_chunked_m_rope_barely_sees_columns_and_the_sentence_says_by_how_much():
    at = opened(tab="picture")  # query 87 = row 5, column 7 of 12 x 16 tokens
    q, k = data.content(0, "random")
    maps = direct_maps(12, 16, 1e6, 87, q, k)
    chunked, inter = (float(np.ptp(maps[m][5, :])) for m in ("chunked", "interleaved"))
    assert chunked < 1e-3 < 0.1 < inter
    shown = text("en", "mrope.picture_notice", chunked=f"{chunked:.2g}",
                 interleaved=f"{inter:.2g}", cols=16)  # fmt: skip
    assert shown in caption_list(at)
    assert text("en", "mrope.query_at", row=5, col=7, rows=12, cols=16) in caption_list(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_map_in_almost_one_colour_says_how_little_its_scores_span(lang):
    # At the defaults chunked M-RoPE's map spans ~1e-3 of a colour range of ~4: it looked
    # empty. Its panel says by how much it varies; the other panels say nothing.
    at = opened(tab="picture", lang=lang)
    q, k = data.content(0, "random")
    maps = direct_maps(12, 16, 1e6, 87, q, k)
    top = max(float(np.max(np.abs(z))) for z in maps.values())
    spans = {m: float(np.ptp(z)) for m, z in maps.items()}
    assert spans["chunked"] < 0.02 * 2 * top < min(v for m, v in spans.items() if m != "chunked")
    notes = [a["text"] for a in chart(at, "mrope_picture_chart")["layout"]["annotations"]]
    flat = text(lang, "mrope.flat_note", span=f"{spans['chunked']:.2g}")
    shown = [n for n in notes if n.replace("<br>", "") == flat]
    assert len(shown) == 1 and "<br>" in shown[0]  # on two lines, in one panel only


def click(at: AppTest, key: str, points: list) -> AppTest:
    """Run ``at`` as after a click on chart ``key`` selecting ``points`` (the selection
    JSON Streamlit's front end sends; tests/shared/test_grab.py)."""
    element = next(e for e in at.get("plotly_chart") if chart_key(e.proto.id) == key)
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = element.proto.id
    selection = {"points": points, "point_indices": [], "box": [], "lasso": []}
    state.string_value = json.dumps({"selection": selection})
    at._run(states)
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_a_click_on_a_token_makes_it_the_query():
    at = opened(tab="picture")
    fig = chart(at, "mrope_picture_chart")
    pickers = [n for n, tr in enumerate(fig["data"]) if tr.get("meta") == PICK]
    assert len(pickers) == 4  # one per map
    curve = pickers[2]
    values = decode(fig["data"][curve]["customdata"])
    np.testing.assert_array_equal(values[:, 0], np.arange(12 * 16))  # row-major index
    point = {"curve_number": curve, "point_number": 40, "point_index": 40,
             "customdata": values[40].tolist(), "x": 8, "y": 2}  # fmt: skip
    click(at, "mrope_picture_chart", [point])
    assert at.slider(key=sp.QUERY.key).value == 40
    assert at.query_params[sp.QUERY.key] == "40"
    stars = [tr for tr in chart(at, "mrope_picture_chart")["data"] if tr.get("mode") == "markers"
             and tr.get("marker", {}).get("symbol") == "star"]  # fmt: skip
    assert [(decode(s["y"])[0], decode(s["x"])[0]) for s in stars] == [(2, 8)] * 4
    assert text("en", "mrope.query_at", row=2, col=8, rows=12, cols=16) in caption_list(at)


def test_the_query_is_clamped_to_a_smaller_image():
    at = opened({**SMALL, "mrope_query": "500"}, tab="picture")
    assert at.slider(key=sp.QUERY.key).value == 23  # 4 x 6 tokens
    assert text("en", "mrope.query_at", row=3, col=5, rows=4, cols=6) in caption_list(at)


def test_the_content_is_said_in_both_languages():
    for lang in ("en", "zh"):
        at = opened(tab="picture", lang=lang)
        assert text(lang, "mrope.content_caption_random") in caption_list(at)


def _interleaved_owners() -> dict[int, list[int]]:
    """Which of the 64 pairs each axis turns in Qwen3-VL's layout, read from posenc: a token
    at position 1 on one axis only moves that axis's pairs."""
    ids = np.eye(3, dtype=np.int64)
    _, sin = posenc.mrope_cos_sin(ids, 128, 10000.0, [24, 20, 20], interleaved=True)
    return {axis: np.flatnonzero(np.abs(sin[axis, :64]) > 0).tolist() for axis in range(3)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pairs_note_lists_each_axiss_interleaved_pairs_as_posenc_turns_them(lang):
    owners = _interleaved_owners()
    time, height, width = owners[0], owners[1], owners[2]
    note = text(lang, "mrope.pairs_notes")
    assert f"{height[0]}, {height[1]}, {height[2]}, …, {height[-1]}" in note
    assert f"{width[0]}, {width[1]}, {width[2]}, …, {width[-1]}" in note
    steady = [p for p in time if p < 60]
    assert steady == list(range(0, 58, 3)) and f"{steady[0]}, {steady[1]}, …, {steady[-1]}" in note
    assert [p for p in time if p >= 60] == [60, 61, 62, 63] and "60–63" in note
