"""The RoPE page's temperature view (issue 31, §3): the last query's attention entropy as
its context grows, without, with and twice YaRN's factor, and DeepSeek-V3's split of it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from support.apptest import Page
from support.screen import caption_list, chart, decode

import posenc
from ui.features.rope import data
from ui.features.rope import specs as sp
from ui.features.rope.figures import entropy_figure
from ui.plain.texts import text

ROPE = Page("5_RoPE.py", sp, timeout=120)
SMALL = {"rope_len": "24", "rope_head_dim": "16"}
SETTINGS = dict(head_dim=16, base=10000.0, layout="interleaved", kind="random", text="", seed=0)


def direct_entropy(head_dim, base, layout, kind, text, seed, scaling, factor, original, power):
    """H(L') by the plain route: the content's score of q with itself at every distance,
    times a**power, softmaxed over all L' distances at once."""
    context = data.extended_context(factor, original)
    q = data.make_content(head_dim, 1, kind, text, seed).q[0]
    method = data.SCALINGS[scaling]
    inv, a = posenc.rope_frequencies(
        head_dim, base, scaling=method, factor=factor, original_context=original, context=context
    )
    r = np.arange(context, dtype=np.float64)
    z = posenc.relative_scores(q, q, r, inv, layout=layout) / math.sqrt(head_dim) * a**power
    p = np.exp(z - z.max())
    p /= p.sum()
    return float(-(p * np.log(p)).sum()), a


@pytest.mark.parametrize("power_key, power", [("off", 0), ("on", 2), ("twice", 4)])
def test_the_entropy_at_the_longest_context_equals_a_plain_softmax(power_key, power):
    settings = dict(SETTINGS, scaling="yarn", factor=8.0, original=256)
    view = data.temperature_view(**settings)
    expected, a = direct_entropy(**settings, power=power)
    assert a == pytest.approx(posenc.yarn_mscale(8.0))
    assert view["at_context"][power_key] == pytest.approx(expected, abs=1e-10)
    assert view["curves"][power_key][-1] == view["at_context"][power_key]
    assert view["lengths"][-1] == view["context"] == 2048


def test_a_method_without_a_factor_draws_plain_rope_and_itself_only():
    view = data.temperature_view(**SETTINGS, scaling="linear", factor=8.0, original=256)
    assert set(view["curves"]) == {"plain", "off"}
    assert view["attention_factor"] == 1.0
    plain = data.temperature_view(**SETTINGS, scaling="none", factor=8.0, original=256)
    assert set(plain["curves"]) == {"plain"}  # "without a" would repeat it
    assert plain["at_context"]["off"] == plain["at_context"]["plain"]


def test_the_trained_level_is_plain_ropes_entropy_at_the_original_context():
    view = data.temperature_view(**SETTINGS, scaling="yarn", factor=4.0, original=512)
    plain = dict(SETTINGS, scaling="none", factor=1.0, original=512)
    expected, _ = direct_entropy(**plain, power=0)  # context = L0 when s = 1
    assert view["trained"] == pytest.approx(expected, abs=1e-10)


def test_the_factor_sharpens_and_applying_it_twice_sharpens_more():
    view = data.temperature_view(**SETTINGS, scaling="yarn", factor=16.0, original=256)
    h = view["at_context"]
    assert h["twice"] < h["on"] < h["off"]


def test_deepseek_v3_puts_one_into_rope_and_yarns_square_into_the_softmax():
    ds = data.deepseek_temperature()
    peer = posenc.yarn_mscale(40.0) ** 2  # checked against transformers in tests/posenc
    assert ds["rope"] == 1.0 and ds["factor"] == 40.0
    assert ds["softmax"] == pytest.approx(peer) and ds["total"] == pytest.approx(ds["yarn"])


def test_the_chart_tells_its_curves_apart_without_colour_and_marks_l0():
    view = data.temperature_view(**SETTINGS, scaling="yarn", factor=4.0, original=512)
    names = {key: key for key in view["curves"]}
    fig = entropy_figure(
        view["lengths"], view["curves"], original=512, trained=view["trained"], names=names,
        x_title="L", y_title="H", original_label="L0", trained_label="trained",
    )  # fmt: skip
    styles = {(tr.line.dash, tr.marker.symbol) for tr in fig.data}
    assert len(styles) == len(fig.data) == 4
    assert fig.layout.xaxis.type == "log"
    assert [shape.x0 for shape in fig.layout.shapes if shape.x0 == shape.x1] == [512]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tab_draws_the_entropy_and_states_the_numbers_it_computed(lang):
    query = {**SMALL, "rope_scaling": "yarn", "rope_factor": "8", "rope_orig": "256"}
    at = ROPE.open({**query, "lang": lang}, "temperature")
    assert not at.exception
    fig = chart(at, "rope_temp_chart")
    view = data.temperature_view(**SETTINGS, scaling="yarn", factor=8.0, original=256)
    method = text(lang, "rope.method_yarn")
    drawn = {trace["name"]: decode(trace["y"]) for trace in fig["data"]}
    for key, curve in view["curves"].items():
        np.testing.assert_array_equal(drawn[text(lang, f"rope.temp_{key}", method=method)], curve)
    h, a = view["at_context"], view["attention_factor"]
    added, taken = h["off"] - h["plain"], h["off"] - h["on"]
    assert added > 0
    notice = text(lang, "rope.temp_notice_gain", a2=f"{a * a:.4g}", added=f"{added:.3f}",
                  taken=f"{taken:.3f}")  # fmt: skip
    assert notice in caption_list(at)
    table = "\n".join(m.value for m in at.markdown)
    for value in (view["trained"], h["plain"], h["off"], h["on"], h["twice"]):
        assert f"| {value:.3f} | {math.exp(value):,.1f} |" in table
    notes = "\n".join(m.value for m in at.expander[0].markdown)
    assert "1.8739" in notes and "DeepSeek-V3" in notes  # (0.1 ln 40 + 1)^2, the peer's


def test_a_method_without_a_factor_says_so_under_the_chart():
    query = {**SMALL, "rope_scaling": "llama3", "rope_factor": "8", "rope_orig": "256"}
    at = ROPE.open(query, "temperature")
    assert not at.exception
    assert len(chart(at, "rope_temp_chart")["data"]) == 2
    assert text("en", "rope.temp_notice_none", method="Llama 3.1") in caption_list(at)
    assert not any("DeepSeek-V3" in m.value for m in at.markdown)


def test_without_a_gain_the_notice_claims_none_taken_back(monkeypatch):
    # Where the method's angles spread the attention no further than plain RoPE at the
    # same L' (a view made so), the notice says so instead of an amount taken back.
    real = data.temperature_view(**SETTINGS, scaling="yarn", factor=8.0, original=256)
    h = real["at_context"]
    fake = dict(real, at_context=dict(h, plain=h["off"] + 1.0))
    monkeypatch.setattr(data, "temperature_view", lambda **_: fake)
    query = {**SMALL, "rope_scaling": "yarn", "rope_factor": "8", "rope_orig": "256"}
    at = ROPE.open(query, "temperature")
    assert not at.exception
    a = real["attention_factor"]
    notice = text("en", "rope.temp_notice", a2=f"{a * a:.4g}", taken=f"{h['off'] - h['on']:.3f}")
    assert notice in caption_list(at)


def test_the_extension_tab_and_the_temperature_tab_share_their_three_controls():
    query = {**SMALL, "rope_scaling": "ntk", "rope_factor": "2", "rope_orig": "128"}
    at = ROPE.open(query, "temperature")
    assert [r.value for r in at.radio if r.key and "scaling" in r.key] == ["ntk"]
    assert [n.value for n in at.number_input if n.key and "factor" in n.key] == [2.0]
    assert [s.value for s in at.slider if s.key and "orig" in s.key] == [128]
