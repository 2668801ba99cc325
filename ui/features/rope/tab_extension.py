"""The RoPE page's "Context extension" tab: plain RoPE, position interpolation, NTK,
YaRN and Llama 3.1 on the same content, with frequencies as Hugging Face transformers
computes them (``posenc.rope_frequencies``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from posenc.rope import LLAMA3_HIGH_FREQ_FACTOR, YARN_BETA_FAST
from ui.features.rope import data, figures
from ui.features.rope import specs as sp
from ui.plain.tables import markdown_table
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

FORMULAS = {  # per method, shared by both languages
    "none": r"\theta_j = b^{-2j/d}",
    "linear": r"\theta'_j = \theta_j / s \qquad (m \mapsto m / s)",
    "ntk": r"b' = b\,\Big(\frac{s L'}{L_0} - (s - 1)\Big)^{d/(d-2)},\ \theta'_j = b'^{-2j/d}",
    "yarn": r"\theta'_j = (1-\gamma_j)\,\theta_j + \gamma_j\,\frac{\theta_j}{s},\ \gamma_j = "
    r"\mathrm{clip}\Big(\frac{j - j_{32}}{j_{1} - j_{32}}, 0, 1\Big),\ S \to a^2 S,\ "
    r"a = 0.1\ln s + 1",
    "llama3": r"t_j = \frac{L_0\,\theta_j}{2\pi},\ g_j = \mathrm{clip}\Big(\frac{t_j - 1}{4 - 1},"
    r" 0, 1\Big),\ \theta'_j = (1-g_j)\,\frac{\theta_j}{s} + g_j\,\theta_j",
}
# Turns inside L0 above which a method keeps theta_j (below 1 turn both use theta_j / s).
TURNS_FAST = {"yarn": YARN_BETA_FAST, "llama3": LLAMA3_HIGH_FREQ_FACTOR}


def method_controls() -> tuple[str, float, int]:
    """The method, its factor s and the pretrained context L0 (this tab and Temperature)."""
    c1, c2, c3 = st.columns(3)
    scaling = controls.choice(
        sp.SCALING, t("rope.scaling"), t("rope.scaling_help"), container=c1,
        labels=[t(f"rope.method_{code}") for code in sp.SCALING.options],
    )  # fmt: skip
    factor = controls.number(sp.FACTOR, t("rope.factor"), t("rope.factor_help"), container=c2)
    orig = controls.slider(sp.ORIGINAL, t("rope.orig"), t("rope.orig_help"), container=c3)
    return scaling, float(factor), int(orig)


def tab(model: tuple[int, float], layout: str, content: tuple[str, str, int]) -> None:
    """``model`` = (head_dim, base), ``content`` = (kind, text, seed) from the sidebar."""
    (head_dim, base), (kind, text, seed) = model, content
    pairs = head_dim // 2
    scaling, factor, orig = method_controls()
    st.latex(FORMULAS[scaling])
    ext = data.extension_view(
        head_dim=head_dim, base=base, layout=layout, kind=kind, text=text, seed=seed,
        scaling=scaling, factor=float(factor), original=int(orig), scale=True,
    )  # fmt: skip
    a, context = ext["attention_factor"], ext["context"]
    metrics = {"context": context, "attention_factor": a, "score_factor": a * a}
    for col, (key, value) in zip(st.columns(3), metrics.items(), strict=True):
        col.metric(t(f"rope.{key}"), f"{value:.6g}", help=t(f"rope.{key}_help"))
    names = {code: t(f"rope.method_{code}") for code in data.SCALINGS}
    kw = dict(names=names, x_title=t("rope.pair_index"), height=controls.chart_height(360))
    left, right = controls.beside([1, 1])
    fig = figs.frequency_figure(ext["inv_freq"], y_title="θⱼ", **kw)
    controls.plot(fig, "rope_inv_chart", left, alt=t("rope.alt_inv", pairs=pairs))
    method = "llama3" if scaling == "llama3" else "yarn"  # whose thresholds are drawn
    marks = {
        t(f"rope.turns_fast_{method}"): TURNS_FAST[method],
        t(f"rope.turns_slow_{method}"): 1.0,
    }
    fig = figs.frequency_figure(ext["turns"], y_title=t("rope.turns"), thresholds=marks, **kw)
    controls.plot(fig, "rope_turns_chart", right, alt=t("rope.alt_turns", orig=orig))
    st.caption(t("rope.frequency_lead", orig=orig))
    kinds = ("method", *data.PAIR_KINDS)
    rows = [[names[code], *ext["counts"][code].values()] for code in data.SCALINGS]
    counted = pd.DataFrame(rows, columns=[t(f"rope.count_{name}") for name in kinds])
    st.markdown(f"{t('rope.count_header', pairs=pairs)}\n\n{markdown_table(counted)}")
    if ext["yarn_turned_over"]:
        st.caption(t("rope.yarn_turned_over", pairs=pairs, d_1=head_dim - 1))
    texts = dict(titles=[t("rope.ext_scores"), t("rope.ext_bound")], x_title=t("rope.distance"))
    texts |= dict(y_titles=["S(r)", t("rope.decay_bound")], original_label=f"L₀ = {orig}")
    texts |= dict(names=names, height=controls.chart_height(560), narrow=controls.phone())
    fig = figs.extension_figure(ext["distances"], ext["scores"], ext["bounds"], orig, **texts)
    controls.plot(fig, "rope_ext_chart", alt=t("rope.alt_ext", orig=orig))
    counts = ext["counts"][scaling]
    unchanged = scaling != "none" and counts["kept"] == pairs
    notice = "ext_unchanged" if unchanged else "ext_notice"
    inv = ext["inv_freq"]
    slowest = inv["none"][-1] / inv[scaling][-1]  # how many times slower the slowest pair turns
    st.caption(
        t(f"rope.{notice}_{scaling}", orig=orig, context=context, pairs=pairs, **counts,
          slowest=f"{slowest:.3g}", factor=f"{float(factor):g}")
    )  # fmt: skip
    with controls.notes() as notes:
        if notes.open:
            st.caption(t("rope.frequency_notice", orig=orig))
    table = [ext["distances"], *ext["scores"].values(), *ext["bounds"].values()]
    export.offer("rope_extension", fig, matrix=np.column_stack(table))
