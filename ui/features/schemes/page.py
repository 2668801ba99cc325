"""Schemes compared: none, sinusoidal, learned, T5, ALiBi, RoPE, xPos, partial RoPE and
p-RoPE on the same axes (issue 22)."""

import numpy as np
import streamlit as st

import posenc
from posenc.tables import toeplitz_deviation
from ui.features.schemes import data, figures
from ui.features.schemes import specs as sp
from ui.features.schemes import tab_learned as schemes_learned
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)
FORMULAS = {  # shared by both languages
    "rotary": r"\frac{\mathbb{E}\,\langle f(x, m), f(x, n)\rangle}{\mathbb{E}\,|x|^2}"
    r" = \frac{2}{d}\sum_j w_j(r) \cos(r\theta_j),\quad r = m - n",
    "alibi": r"B_h[m, n] = -s_h\,|m - n|,\qquad \zeta_j = \frac{2j/d + 0.4}{1.4}",
    "gram": r"G = P P^\top,\qquad \frac{\lVert G - \mathcal{T}(G)\rVert_F}{\lVert G\rVert_F},"
    r"\qquad \min_W \frac{\lVert P_{p} W - P_{p+1}\rVert_F}{\lVert P_{p+1}\rVert_F}",
}


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("schemes", sp.SPECS)
    (bar := st.sidebar).subheader(t("schemes.sidebar"))
    head_dim = controls.slider(
        sp.HEAD_DIM, t("schemes.head_dim"), t("schemes.head_dim_help"), container=bar
    )
    train = controls.slider(sp.TRAIN, t("schemes.train"), t("schemes.train_help"), container=bar)
    head_dim, train = int(head_dim), int(train)
    NAMES = {code: t(f"schemes.name_{code}") for code in (*data.CURVES, "t5")}

    st.title(t("schemes.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("schemes.lead"))

    def distance_tab() -> None:
        st.latex(FORMULAS["rotary"])
        r, curves, t5 = data.distance_curves(head_dim, train)
        labels = dict(x_title=t("schemes.distance"), y_title=t("schemes.score_part"))
        fig = figs.distance_figure(
            r, curves, t5, names=NAMES, train=train, **labels, t5_title=t("schemes.t5_bucket"),
            train_label=t("schemes.train_mark"), height=controls.chart_height(560),
        )  # fmt: skip
        controls.plot(fig, "sc_distance_chart", alt=t("schemes.alt_distance", train=train))
        rows = posenc.learned_position_embeddings(data.LEARNED).shape[0]
        rest = f"{1 - data.PARTIAL:.0%}"
        st.caption(
            t("schemes.distance_notice", rows=rows, t5_max=data.T5_MAX_DISTANCE,
              t5_last=data.T5_BUCKETS // 2 - 1, rest=rest)
        )  # fmt: skip
        st.caption(t("schemes.distance_how"))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("schemes.distance_notes"))
                st.latex(FORMULAS["alibi"])
        export.offer("schemes_distance", fig, matrix=np.column_stack([r, *curves.values(), t5]))

    def matrix_tab() -> None:
        length = int(controls.slider(sp.LENGTH, t("schemes.length"), t("schemes.length_help")))
        mats = data.matrices(head_dim, length)
        titles = {key: t(f"schemes.mtitle_{key}") for key in mats}
        fig = figs.matrix_figure(
            mats, titles=titles, x_title=t("schemes.key_pos"), y_title=t("schemes.query_pos"),
            stacked=controls.stacked(), height=controls.chart_height(380),
            panel_height=controls.chart_height(300),
        )  # fmt: skip
        controls.plot(fig, "sc_matrix_chart", alt=t("schemes.alt_matrix", n=len(mats), L=length))
        st.caption(
            t(
                "schemes.matrix_notice",
                dev=schemes_learned.percent(toeplitz_deviation(mats["learned"])),
            )
        )
        st.caption(t("schemes.matrix_how"))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("schemes.matrix_notes"))
        export.offer("schemes_matrices", fig)

    def properties_tab() -> None:
        columns = [t(f"schemes.col_{c}") for c in ("scheme", "kind", "params", "beyond", "models")]
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        order = ("nope", "sinusoidal", "learned", "t5", "alibi", "rope", "xpos", "partial")
        lines += [f"| {t(f'schemes.row_{code}')} |" for code in (*order, "prope")]
        st.markdown("\n".join(lines))
        st.caption(t("schemes.properties_notice"))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("schemes.properties_notes"))

    def learned_tab() -> None:
        schemes_learned.tab(FORMULAS["gram"])

    SECTIONS = {
        "distance": distance_tab,
        "matrix": matrix_tab,
        "properties": properties_tab,
        "learned": learned_tab,
    }

    controls.run_open_tab(sp.TAB, "schemes", SECTIONS)
