"""The RoPE page's "Temperature" tab: YaRN's attention factor as a softmax temperature.
The last query's attention entropy as its context grows (``data.temperature_view``, by
``posenc.prefix_entropies``), with the method's factor a left out, applied (a^2 on every
score) and applied twice, and DeepSeek-V3's split of the same factor."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from ui.features.rope import data, figures
from ui.features.rope.tab_extension import method_controls
from ui.plain.tables import markdown_table
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

ENTROPY = (
    r"H(L) = -\sum_{r<L} p_r \ln p_r,\quad p_r = \frac{e^{\lambda S(r)}}"
    r"{\sum_{r'<L} e^{\lambda S(r')}},\quad \lambda \in \{1,\ a^2,\ a^4\}"
)


def nats(value: float) -> str:
    return f"{value:.3f}"


def keys(entropy: float) -> str:
    """e^H, the number of keys' worth the attention spreads over."""
    return f"{math.exp(entropy):,.1f}"


def entropy_table(view: dict, method: str, orig: int) -> str:
    """H and e^H: plain RoPE at L0 and at L', then each curve of the method at L'."""
    h, context = view["at_context"], view["context"]
    rows = [(t("rope.temp_plain"), f"L₀ = {orig:,}", view["trained"]),
            (t("rope.temp_plain"), f"L′ = {context:,}", h["plain"])]  # fmt: skip
    for key in ("off", "on", "twice"):
        if key in h and key in view["curves"]:
            rows.append((t(f"rope.temp_{key}", method=method), f"L′ = {context:,}", h[key]))
    columns = [t(f"rope.temp_col_{key}") for key in ("curve", "length", "entropy", "keys")]
    table = [(name, length, nats(value), keys(value)) for name, length, value in rows]
    return markdown_table(pd.DataFrame(table, columns=columns), left=columns[:2])


def tab(model: tuple[int, float], layout: str, content: tuple[str, str, int]) -> None:
    """``model`` = (head_dim, base), ``content`` = (kind, text, seed) from the sidebar."""
    (head_dim, base), (kind, text, seed) = model, content
    scaling, factor, orig = method_controls()
    view = data.temperature_view(
        head_dim=head_dim, base=base, layout=layout, kind=kind, text=text, seed=seed,
        scaling=scaling, factor=factor, original=orig,
    )  # fmt: skip
    method = t(f"rope.method_{scaling}")
    st.markdown(t("rope.temp_lead"))
    controls.latex(ENTROPY)
    names = {key: t(f"rope.temp_{key}", method=method) for key in view["curves"]}
    fig = figs.entropy_figure(
        view["lengths"], view["curves"], original=orig, trained=view["trained"], names=names,
        x_title=t("rope.temp_length"), y_title=t("rope.temp_entropy"),
        original_label=f"L₀ = {orig}", trained_label=t("rope.temp_trained"),
        height=controls.chart_height(420),
    )  # fmt: skip
    controls.plot(fig, "rope_temp_chart", alt=t("rope.alt_temp", orig=orig))
    h, a = view["at_context"], view["attention_factor"]
    if "on" not in h:
        st.caption(t("rope.temp_notice_none", method=method))
    else:
        # Against plain RoPE at the same L': what the slower angles add, and a^2 takes away.
        added, taken = h["off"] - h["plain"], h["off"] - h["on"]
        key = "rope.temp_notice_gain" if added > 0 else "rope.temp_notice"
        st.caption(t(key, a2=f"{a * a:.4g}", added=nats(added), taken=nats(taken)))
    st.markdown(entropy_table(view, method, orig))
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t("rope.temp_notes"))
            if scaling == "yarn":
                ds = data.deepseek_temperature()
                st.markdown(
                    t("rope.temp_deepseek", s=f"{ds['factor']:g}", rope=f"{ds['rope']:g}",
                      softmax=f"{ds['softmax']:.4f}")
                )  # fmt: skip
    table = np.column_stack([view["lengths"], *view["curves"].values()])
    export.offer("rope_temperature", fig, matrix=table)
