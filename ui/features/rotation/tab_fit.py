"""The Rotation page's "Fit W" tab: the paper's sentence the other way round, W fitted
from data by least squares, and why a sin-only code has no such W."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.features.rotation import data, figures, specs
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)


def tab(setting: tuple[int, int, float, float, str], pair: int, dims: np.ndarray) -> None:
    """``setting`` = (seq_len, d_model, base, k, layout) from the page; ``pair`` the chosen
    pair and ``dims`` its two columns, whose window the fitted W shows."""
    seq_len, d_model, base, k, layout = setting
    chart = controls.chart_height
    st.header(t("rotation.fit_header"))
    st.caption(t("rotation.fit_lead"))
    st.latex(
        r"W^\star = \arg\min_W \lVert X W - Y \rVert_F = X^{+} Y,\qquad "
        r"X = \big[PE_{(p)}\big]_{p},\quad Y = \big[PE_{(p+k)}\big]_{p}"
    )
    left, right = st.columns(2)
    kind = controls.choice(
        specs.FIT,
        t("rotation.fit"),
        t("rotation.fit_help"),
        labels=[t("rotation.fit_spread"), t("rotation.fit_sequence")],
        container=left,
    )
    samples = controls.choice(
        specs.FIT_N, t("rotation.fit_n"), t("rotation.fit_n_help"),
        labels=[t("rotation.fit_n_2m"), t("rotation.fit_n_L", L=seq_len)], container=right,
    )  # fmt: skip
    view = data.fit(seq_len, d_model, base, k, layout, kind, samples)
    fit = view.fit
    m = fit.columns.size
    if view.capped_dims:
        st.info(t("rotation.fit_capped_dims", dims=m, pairs=view.pairs, d_model=d_model))
    if view.capped_rows:
        st.info(t("rotation.fit_capped_rows", n=fit.positions.size, L=seq_len))
    if fit.underdetermined:
        st.info(t("rotation.fit_underdetermined", n=fit.positions.size, m=m))
    elif fit.rank < m:
        st.info(t("rotation.fit_rank_deficient", rank=fit.rank, m=m))
    metrics = controls.cells(4, per_row=2)
    metrics[0].metric(
        t("rotation.fit_error"), f"{fit.fit_error:.2e}", help=t("rotation.fit_error_help")
    )
    metrics[1].metric(
        t("rotation.fit_sine_only"), f"{view.sine_only:.2e}", help=t("rotation.fit_sine_only_help")
    )
    metrics[2].metric(
        t("rotation.fit_gap"), f"{fit.matrix_error:.2e}", help=t("rotation.fit_gap_help")
    )
    metrics[3].metric(t("rotation.fit_rank"), f"{fit.rank} / {m}", help=t("rotation.fit_rank_help"))
    left, right = controls.beside([1, 1])
    inner = data.window_indices(m, min(pair, view.pairs - 1), layout)
    fig_w = figs.matrix_figure(
        fit.columns[inner],
        fit.matrix[np.ix_(inner, inner)],
        dims,
        axis_title=t("rotation.axis_dim"),
        title=t("rotation.fit_w_title"),
        height=chart(440),
    )
    controls.plot(fig_w, "rot_fit_w_chart", left, alt=t("rotation.alt_fit_w"))
    fig_e = figs.pair_error_figure(
        fit.pair_errors,
        view.slow_from,
        title=t("rotation.fit_error_title"),
        x_title=t("rotation.axis_pair"),
        y_title=t("rotation.axis_fit_error"),
        slow_label=t("rotation.fit_slow_line"),
        height=chart(440),
    )
    controls.plot(fig_e, "rot_fit_error_chart", right, alt=t("rotation.alt_fit_error"))
    drawn_line = view.slow_from is not None and view.slow_from < view.pairs
    st.caption(t("rotation.fit_notice" if drawn_line else "rotation.fit_notice_no_line"))
    st.caption(t("rotation.fit_sine_only_notice"))
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t("rotation.fit_intro"))
            st.latex(
                r"\sin\omega_i(p+k) = \cos\omega_i k\,\sin\omega_i p"
                r" + \sin\omega_i k\,\cos\omega_i p"
            )
            st.markdown(t("rotation.fit_sine_only_notes"))
    export.offer("rotation_fit", fig_e, matrix=fit.matrix)
