"""The "Start here" story: one idea per step, in order (``pages/0_Start_here.py``).

``STEPS`` names the steps in order; ``/Start_here?step=N`` opens step N (1-based).
Each step draws, top to bottom: two short lines (a placeholder filled once its numbers
are known), at most two controls, one chart computed live by ``posenc``, a formula,
and a link to the page and tab that explore the idea, with the step's settings.

A step draws on a *surface* (issue #32): :class:`Live` draws with Streamlit; the offline
deck (``ui.plain.deck.Recorder``, ``tools/export_deck.py``) records the same step's
lines, figure and formula for each stop of its controls. One function per step, so the
deck and the page cannot tell two stories.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import urlencode

import numpy as np
import streamlit as st

import posenc
from posenc import spectrum
from ui.features.story import data, specs
from ui.features.story import figures as story_figs
from ui.plain import clock as wavelength_figs
from ui.plain import table_figure as home_figs
from ui.plain.params import LANG
from ui.plain.story_outline import STEPS
from ui.plain.texts import text
from ui.shared import controls, figure_cache, menu
from ui.shared.i18n import t
from ui.shared.pe_table import table_grid

# A room follows the presenter: every session on a step asks for the same figures.
# Built once per process and language (ui/shared/figure_cache.py, issue #23).
figs = figure_cache.builders(story_figs)
wl_figs = figure_cache.builders(wavelength_figs)
home_heatmap = figure_cache.builders(home_figs).home_heatmap


class Deeper(NamedTuple):
    """Where a step's idea is explored: a page (``ui.shared.menu`` name), its tab, settings."""

    page: str
    tab_key: str
    tab: str
    params: dict[str, str]


class Live:
    """The page in a session: Streamlit widgets bound to the URL, charts, ``st.latex``.

    A surface (what a step draws on; ``ui.plain.deck.Recorder`` is the deck's) has
    ``t``, ``slider``, ``toggle``, ``columns``, ``lead``, ``plot``, ``latex``,
    ``chart_height``, ``phone``, ``stacked`` and the figure builders ``figs``,
    ``wl_figs``, ``home_heatmap``."""

    figs, wl_figs = figs, wl_figs
    home_heatmap = staticmethod(home_heatmap)

    def __init__(self, lead) -> None:
        self._lead = lead  # the placeholder under the title, filled once numbers are known

    t = staticmethod(t)

    def slider(self, spec, name: str, container=st):
        return controls.slider(
            spec, t(f"story.{name}"), t(f"story.{name}_help"), container=container
        )

    def toggle(self, spec, name: str) -> bool:
        return controls.toggle(spec, t(f"story.{name}"), t(f"story.{name}_help"))

    def columns(self, n: int) -> list:
        return st.columns(n)

    def lead(self, first: str, second: str) -> None:
        self._lead.markdown(first + "\n\n" + second)

    def plot(self, fig, name: str) -> None:
        controls.plot(fig, f"story_{name}_chart", alt=t(f"story.alt_{name}"))

    def latex(self, tex: str) -> None:
        st.latex(tex)

    def chart_height(self, height: int) -> int:
        return controls.chart_height(height)

    def phone(self) -> bool:
        return controls.phone()

    def stacked(self) -> bool:
        return controls.phone() or controls.presenting()


class Uncached:
    """Builders of ``figure_cache.builders`` that run as they are: the deck builds each
    of its hundreds of figures once, and must not push a room's figures out of the cache."""

    def __init__(self, cached) -> None:
        self._cached = cached

    def __getattr__(self, name: str):
        value = getattr(self._cached, name)
        return getattr(value, "uncached", value)


def _num(x: float, digits: int = 3) -> str:
    return f"{x:.{digits}g}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def tiny(x: float) -> str:
    """A small size in school notation, one digit: ``5 × 10⁻¹⁵`` (not ``5e-15``)."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{abs(x):.0e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


# ------------------------------------------------------------------ the steps


def order(s) -> Deeper:
    t = s.t
    with_pe = s.toggle(specs.ORDER_PE, "order_pe")
    a, b = data.dog_outputs(with_pe)
    gap = float(np.abs(a - b).max())
    second = t("story.order_apart", gap=_num(gap)) if with_pe else t("story.order_same")
    s.lead(t("story.order_lead"), second)
    fig = s.figs.order_figure(
        a, b, names=(t("story.order_a"), t("story.order_b")), x_title=t("story.order_x"),
        y_title=t("story.order_y"), hover=t("story.order_hover"),
        height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "order")
    s.latex(
        r"\operatorname{softmax}\!\Big(\tfrac{(PX)(PX)^\top}{\sqrt d}\Big)\,PX"
        r" = P\,\operatorname{softmax}\!\Big(\tfrac{XX^\top}{\sqrt d}\Big)\,X"
    )
    return Deeper("heatmap", "hm_tab", "embedding", {"hm_sentence": t("story.order_sentence")})


def naive(s) -> Deeper:
    t = s.t
    length = int(s.slider(specs.NAIVE_LEN, "naive_len"))
    codes = data.naive_codes(length)
    short = data.SHORT_LEN
    s.lead(
        t(
            "story.naive_lead",
            short=short,
            L=length,
            a=_num(codes["short"][3]),
            b=_num(codes["long"][3]),
        ),
        t("story.naive_index", top=length - 1),
    )
    names = {
        "short": t("story.naive_short", L=short),
        "long": t("story.naive_long", L=length),
        "index": t("story.naive_index_line"),
    }
    fig = s.figs.naive_figure(
        codes, length, names=names,
        titles=(t("story.naive_panel_norm"), t("story.naive_panel_index")),
        x_title=t("story.position"), y_title=t("story.code"), hover=t("story.naive_hover"),
        height=s.chart_height(340), stacked=s.stacked(),
    )  # fmt: skip
    s.plot(fig, "naive")
    s.latex(r"PE_p = \frac{p}{L-1} \qquad\qquad PE_p = p")
    return Deeper("binary", "bin_tab", "criteria", {"seq_len": str(length)})


def binary(s) -> Deeper:
    t = s.t
    bits = int(s.slider(specs.BITS, "bits"))
    table = data.counter(bits)
    s.lead(t("story.binary_lead", n=2**bits, bits=bits), t("story.binary_flips"))
    fig = s.figs.counter_figure(
        table, bit_names=[t("story.bit_name", i=bits - 1 - j) for j in range(bits)],
        x_title=t("story.bits_axis"), y_title=t("story.position"),
        hover=t("story.counter_hover"), height=s.chart_height(120 + 18 * 2**bits),
    )  # fmt: skip
    s.plot(fig, "binary")
    s.latex(r"p = \sum_i \beta_i\, 2^i,\qquad \beta_i(p) = \big\lfloor p / 2^i \big\rfloor \bmod 2")
    # One pair per bit: the sin/cos panel of the evolution stays as narrow as the counter.
    params = {"seq_len": str(2**bits), "d_model": str(2 * bits)}
    return Deeper("binary", "bin_tab", "evolution", params)


def smooth(s) -> Deeper:
    t = s.t
    bit = int(s.slider(specs.BIT, "bit"))
    curves = data.smooth_bit(bit)
    s.lead(
        t("story.smooth_lead", i=bit, period=2 ** (bit + 1)),
        t("story.smooth_next", ratio=_num(1 / data.speed_ratio())),
    )
    names = {
        "square": t("story.smooth_square", i=bit),
        "smooth": t("story.smooth_wave", i=bit),
        "bits": t("story.smooth_bits", i=bit),
    }
    fig = s.figs.smooth_figure(
        curves, names=names, x_title=t("story.position"), y_title=t("story.bit_value"),
        hover=t("story.smooth_hover"), height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "smooth")
    s.latex(
        r"\beta_i(p) \approx \tfrac12 - \tfrac{2}{\pi}\Big(\cos\tfrac{\omega_i}{2}\,\sin\omega_i p"
        r" + \sin\tfrac{\omega_i}{2}\,\cos\omega_i p\Big),\qquad \omega_i = \frac{\pi}{2^i}"
    )
    return Deeper("binary", "bin_tab", "counter", {"bin_bits": "4"})


def clock(s) -> Deeper:
    t = s.t
    p = int(s.slider(specs.CLOCK_P, "clock_p"))
    d = data.CLOCK_D
    lam = posenc.wavelengths(d, data.BASE)
    s.lead(
        t("story.clock_lead"),
        t("story.clock_ratio", d=d, ratio=_num(data.wavelength_ratio()), last=f"{lam[-1]:,.0f}"),
    )
    dial = np.arange(d // 2)
    frames = p + np.arange(wl_figs.MAX_FRAMES)
    hand_x, hand_y, _ = spectrum.clock_hands(frames, dial, d, data.BASE)
    labels = [t("wavelengths.dial_label", pair=int(i), wavelength=f"{lam[i]:.4g}") for i in dial]
    fig = s.wl_figs.clock_figure(
        labels, frames, hand_x, hand_y, play=t("wavelengths.play"),
        pause=t("wavelengths.pause"), stacked=s.phone(),
        columns=None if s.phone() else 4,  # 8 dials: two rows of four
    )  # fmt: skip
    s.plot(fig, "clock")
    s.latex(
        r"(\sin\omega_i p,\ \cos\omega_i p),\qquad \omega_i = b^{-2i/d},"
        r"\qquad \lambda_i = 2\pi\, b^{2i/d}"
    )
    return Deeper(
        "wavelengths",
        "wl_tab",
        "clock",
        {"d_model": str(d), "wl_clock_p": str(p), "wl_dials": str(d // 2)},
    )


def table(s) -> Deeper:
    t = s.t
    d = int(s.slider(specs.TABLE_D, "table_d"))
    fast, slow = data.column_changes(d)
    s.lead(
        t("story.table_lead"),
        t("story.table_columns", fast=f"{fast:.2f}", slow=f"{slow:.3f}", L=data.TABLE_LEN),
    )
    grid = table_grid("paper", data.TABLE_LEN, d, data.BASE, "interleaved", False)
    fig = s.home_heatmap(
        grid, t("common.dimension"), t("common.position"), z_title=t("common.value"),
        height=s.chart_height(360),
    )  # fmt: skip
    s.plot(fig, "table")
    s.latex(r"PE_{(p,\,2i)} = \sin(\omega_i\, p),\quad PE_{(p,\,2i+1)} = \cos(\omega_i\, p)")
    return Deeper("heatmap", "hm_tab", "table", {"seq_len": str(data.TABLE_LEN), "d_model": str(d)})


def shift(s) -> Deeper:
    t = s.t
    k = int(s.slider(specs.SHIFT_K, "shift_k"))
    omega, sin, cos = data.shift_pair()
    starts = data.arrow_starts(k)
    angle = float(data.shift_angles(k)[0])
    s.lead(
        t("story.shift_lead", pair=data.SHIFT_PAIR, omega=_num(omega), k=k, angle=f"{angle:.2f}"),
        t("story.shift_cos"),
    )
    names = {
        "points": t("story.shift_points"),
        "from": t("story.shift_from"),
        "to": t("story.shift_to", k=k),
    }
    fig = s.figs.circle_figure(
        sin, cos, starts.tolist(), k, data.SHIFT_LEN, names=names, hover=t("story.shift_hover"),
        height=s.chart_height(420),
    )  # fmt: skip
    s.plot(fig, "shift")
    s.latex(
        r"\big[\sin\omega(p{+}k),\ \cos\omega(p{+}k)\big] = \big[\sin\omega p,\ \cos\omega p\big]"
        r"\begin{bmatrix}\cos\omega k & -\sin\omega k\\ \sin\omega k & \cos\omega k\end{bmatrix}"
    )
    params = {"d_model": str(data.SHIFT_D), "rot_k": str(k), "rot_pair": str(data.SHIFT_PAIR)}
    return Deeper("rotation", "rot_tab", "circle", params | {"rot_p": str(int(starts[0]))})


def dot(s) -> Deeper:
    t = s.t
    p = int(s.slider(specs.DOT_P, "dot_p"))
    k, first, moved = data.dot_curves(p)
    gap = float(np.abs(first - moved).max())
    s.lead(t("story.dot_lead", p=p, gap=tiny(gap)), t("story.dot_only"))
    lines = [
        (t("story.dot_line", p=0), first, figs.BLUE, "solid"),
        (t("story.dot_line", p=p), moved, figs.RED, "dash"),
    ]
    fig = s.figs.lines_figure(
        k, lines, x_title=t("story.offset_k"), y_title=t("story.dot_y"),
        hover=t("story.dot_hover"), height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "dot")
    s.latex(r"PE_{p} \cdot PE_{p+k} = \sum_{i=0}^{d/2-1} \cos(\omega_i k)")
    return Deeper("rotation", "rot_tab", "dot", {"d_model": str(data.DOT_D), "rot_p": str(p)})


def weights(s) -> Deeper:
    t = s.t
    cols = s.columns(2)
    k = int(s.slider(specs.W_K, "w_k", cols[0]))
    seed = int(s.slider(specs.W_SEED, "w_seed", cols[1]))
    plain, weighted = data.added_scores(k, seed)
    s.lead(
        t("story.weights_lead"),
        t("story.weights_swing", k=k, flat=f"{plain[0]:.2f}", swing=f"{data.swing(weighted):.2f}"),
    )
    m = data.query_positions(k)
    lines = [
        (t("story.weights_plain"), plain, figs.GREY, "solid"),
        (t("story.weights_w"), weighted, figs.RED, "solid"),
    ]
    fig = s.figs.lines_figure(
        m, lines, x_title=t("story.query_m", k=k), y_title=t("story.score"),
        hover=t("story.score_hover"), height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "weights")
    s.latex(r"(PE_m W_q)(PE_n W_k)^\top = PE_m\, W_q W_k^\top\, PE_n^\top")
    return Deeper("rope", "rope_tab", "compare", {"rope_seed": str(seed)})


def rope(s) -> Deeper:
    t = s.t
    k = int(s.slider(specs.ROPE_K, "rope_k"))
    scores = data.rope_scores(k)
    _, weighted = data.added_scores(k, 0)
    s.lead(
        t("story.rope_lead"),
        t("story.rope_flat", k=k, value=f"{scores[0]:.2f}", spread=tiny(data.swing(scores))),
    )
    lines = [
        (t("story.rope_line"), scores, figs.BLUE, "solid"),
        (t("story.rope_previous"), weighted, figs.GREY, "dot"),
    ]
    fig = s.figs.lines_figure(
        data.query_positions(k), lines, x_title=t("story.query_m", k=k),
        y_title=t("story.score"),
        hover=t("story.score_hover"), height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "rope")
    s.latex(
        r"\big\langle R(m\theta)\,q,\ R(n\theta)\,k \big\rangle"
        r" = \big\langle q,\ R\big((n-m)\theta\big)\,k \big\rangle = g(m-n)"
    )
    return Deeper("rope", "rope_tab", "pair", {"rope_m": str(3 + k), "rope_n": "3"})


def decay(s) -> Deeper:
    t = s.t
    d = int(s.slider(specs.DECAY_D, "decay_d"))
    r, values = data.decay(d)
    at = data.decay_at(d)
    pct = {n: f"{100 * v:.0f}%" for n, v in at.items()}
    s.lead(
        t("story.decay_lead"),
        t("story.decay_at", d=d, r10=pct[10], r100=pct[100], r1000=pct[1000]),
    )
    lines = [(t("story.decay_line", d=d), values, figs.BLUE, "solid")]
    fig = s.figs.lines_figure(
        r, lines, x_title=t("story.distance_r"), y_title=t("story.decay_y"),
        hover=t("story.decay_hover"), height=s.chart_height(320), log_x=True,
    )  # fmt: skip
    s.plot(fig, "decay")
    s.latex(
        r"\frac{\mathbb{E}\,g(r)}{\mathbb{E}\,g(0)}"
        r" = \frac{2}{d}\sum_{j=0}^{d/2-1} \cos(r\,\theta_j)"
    )
    return Deeper("rope", "rope_tab", "decay", {"rope_decay": "same", "rope_head_dim": str(d)})


def extend(s) -> Deeper:
    t = s.t
    factor = float(s.slider(specs.FACTOR, "factor"))
    ratios = data.speed_ratios(factor)
    s.lead(
        t("story.extend_lead", s=f"{factor:g}", L0=data.EXT_ORIGINAL),
        t("story.extend_methods"),
    )
    lines = [
        (t(f"story.method_{name}"), ratios[name], colour, dash)
        for name, colour, dash in zip(data.METHODS, figs.COLOURS, figs.DASHES, strict=True)
    ]
    fig = s.figs.lines_figure(
        np.arange(ratios["linear"].size), lines, x_title=t("story.pair_j"),
        y_title=t("story.extend_y"), hover=t("story.extend_hover"),
        height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "extend")
    parts = (
        r"\theta_j' = \tfrac{\theta_j}{s}\ \ (\mathrm{PI})",
        r"\theta_j' = b'^{-2j/d},\ b' > b\ \ (\mathrm{NTK})",
        r"\theta_j' = (1-\gamma_j)\tfrac{\theta_j}{s} + \gamma_j\theta_j\ \ (\mathrm{YaRN})",
    )  # one method a line on a phone (one line wrapped inside the NTK formula)
    s.latex((r" \\ " if s.phone() else r",\qquad ").join(parts))
    params = {
        "rope_scaling": "yarn",
        "rope_factor": f"{factor:g}",
        "rope_head_dim": str(data.EXT_D),
    }
    return Deeper("rope", "rope_tab", "extension", params | {"rope_orig": str(data.EXT_ORIGINAL)})


def pictures(s) -> Deeper:
    t = s.t
    w = int(s.slider(specs.PICTURE_W, "picture_w"))
    scores = data.picture_scores(w)
    s.lead(
        t("story.pictures_lead", w=w),
        t("story.pictures_below", raster=f"{scores['raster'][1]:.3f}",
          mrope=f"{scores['mrope'][1]:.3f}"),
    )  # fmt: skip
    lines = [
        (t("story.pictures_raster"), scores["raster"], figs.RED, "dash"),
        (t("story.pictures_mrope"), scores["mrope"], figs.BLUE, "solid"),
    ]
    fig = s.figs.lines_figure(
        np.arange(data.PICTURE_ROWS + 1), lines, x_title=t("story.pictures_x"),
        y_title=t("story.pictures_y"), hover=t("story.pictures_hover"),
        height=s.chart_height(320),
    )  # fmt: skip
    s.plot(fig, "pictures")
    s.latex(r"P = y\,w + x\quad (1\text{-D}),\qquad P = (t,\ y,\ x)\quad (\mathrm{M\text{-}RoPE})")
    return Deeper("mrope", "mrope_tab", "picture", {"mrope_w": str(2 * w)})


VIEWS: dict[str, Callable[..., Deeper]] = {
    "order": order, "naive": naive, "binary": binary, "smooth": smooth, "clock": clock,
    "table": table, "shift": shift, "dot": dot, "weights": weights, "rope": rope,
    "decay": decay, "extend": extend, "pictures": pictures,
}  # fmt: skip


# ------------------------------------------------------------------ the offline deck


def deck_steps(lang: str) -> list:
    """Every step in order, recorded for the offline deck (``ui.plain.deck``) at each stop
    of its controls, by the same step functions and builders as the page."""
    from ui.plain import deck  # the deck's modules load only when a deck is built

    builders = dict(
        figs=Uncached(figs), wl_figs=Uncached(wl_figs), home_heatmap=home_heatmap.uncached
    )
    return [
        deck.record_step(name, VIEWS[name], lang, chosen=specs.DECK_STOPS, **builders)
        for name in STEPS
    ]


def deck_link(app_url: str, lang: str) -> Callable[[Deeper], tuple[str, str]]:
    """``deeper -> (label, address)``: a step's go-deeper link on the app at ``app_url``,
    with the same page, tab and settings as the page's link (settings at their defaults
    but the language)."""

    def link(deeper: Deeper) -> tuple[str, str]:
        target = deeper_page(deeper)
        carried = {} if lang == LANG.default else {LANG.key: lang}
        query = {**carried, deeper.tab_key: deeper.tab, **deeper.params}
        label = text(
            lang, "story.deeper", page=text(lang, target.label_key),
            tab=text(lang, f"{deeper.page}.tab_{deeper.tab}"),
        )  # fmt: skip
        return label, f"{app_url.rstrip('/')}{target.url_path}?{urlencode(query)}"

    return link


def deck_file(lang: str, app_url: str | None = None) -> str:
    """The offline deck of the story in ``lang``: one HTML file (``tools/export_deck.py``
    writes it; the page offers it as a download)."""
    from ui.plain.deck_html import deck_html  # MathML and Plotly.js: ~40 ms to import

    link = deck_link(app_url, lang) if app_url else None
    return deck_html(deck_steps(lang), lang, link=link)


def deeper_page(deeper: Deeper) -> menu.PageEntry:
    """The menu entry of the page a go-deeper link opens."""
    return next(page for page in menu.PAGES if page.name == deeper.page)
