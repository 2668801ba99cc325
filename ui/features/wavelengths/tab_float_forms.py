"""The Wavelengths page's "Float forms" tab: the power and the log-space form of omega_i
(seed 003, the PyTorch tutorial's div_term) measured in ulps, and how far a float32 table
like torch's drifts at large positions."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.features.wavelengths import data, figures_float_forms
from ui.features.wavelengths.view import forms_table
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures_float_forms)  # built once for all sessions (#23)


def tab(seq_len: int, d_model: int, base: float) -> None:
    """Power form vs log-space form, and float32 drift at large positions."""
    st.header(t("wavelengths.sec_forms"))
    form_cols = st.columns(2)
    form_cols[0].latex(r"\omega_i = \frac{1}{b^{2i/d}}")
    form_cols[1].latex(r"\omega_i = \exp\!\left(2i\cdot\left(-\frac{\ln b}{d}\right)\right)")
    st.markdown(t("wavelengths.forms_lead"))
    forms = data.form_errors(d_model, base)
    st.dataframe(forms_table(forms["compare"], t))
    fig_forms = figs.forms_figure(
        np.arange(d_model // 2),
        forms["ulps"],
        form_names={form: t(f"wavelengths.form_{form}") for form in ("power", "log")},
        x_title=t("wavelengths.pair_axis"),
        y_title=t("wavelengths.ulp_axis"),
        height=controls.chart_height(340),
        stacked=controls.stacked(),
    )
    controls.plot(fig_forms, "wl_forms_chart", alt=t("wavelengths.alt_forms", half=d_model // 2))
    worse = [k for k, c in forms["compare"].items() if c.log_ulps > c.power_ulps]
    verdict = "forms_log_worse" if worse else "forms_log_not_worse"
    st.caption(
        t(
            f"wavelengths.{verdict}",
            d_model=d_model,
            base=f"{base:g}",
            dtypes=t("common.and").join(worse),
        )
    )
    export.offer("frequency_forms", fig_forms, matrix=np.column_stack(forms["ulps"]["float64"]))

    st.subheader(t("wavelengths.sec_drift"))
    st.markdown(t("wavelengths.drift_lead"))
    drift_pos, drift = data.drift(d_model, base, seq_len)
    marks = sorted({seq_len - 1, 8191, 99999})
    for column, position in zip(st.columns(len(marks)), marks, strict=True):
        column.metric(
            t("wavelengths.drift_at", position=position),
            f"{data.drift_at(drift_pos, drift.torch_f32, position):.3g}",
            help=t("wavelengths.drift_at_help", d_model=d_model, base=f"{base:g}"),
        )
    fig_drift = figs.drift_figure(
        drift_pos,
        drift,
        seq_len,
        names={
            field: t(f"wavelengths.drift_{field}")
            for field in ("torch_f32", "div_term_only", "rounded_f32", "bound")
        },
        x_title=t("common.position"),
        y_title=t("wavelengths.drift_axis"),
        height=controls.chart_height(380),
    )
    controls.plot(fig_drift, "wl_drift_chart", alt=t("wavelengths.alt_drift", L=seq_len))
    export.offer("float32_drift", fig_drift, matrix=np.column_stack([drift_pos, *drift]))
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t("wavelengths.forms_intro"))
            st.caption(t("wavelengths.forms_notice"))
            rel = forms["div_term_rel"]
            units = f"{rel / 2.0**-24:.2g}"
            st.markdown(t("wavelengths.drift_intro", div_rel=f"{rel:.2g}", div_units=units))
            st.latex(
                r"\varepsilon(p) = \max_c \left| PE^{\mathrm{f32}}_{(p,c)} - PE_{(p,c)} \right|,"
                r"\qquad\varphi^{\mathrm{f32}}_{p,i} = \mathrm{fl}_{32}(p\cdot\delta_i),\quad "
                r"\delta_i = \mathrm{fl}_{32}\big(\exp \mathrm{fl}_{32}(2i\cdot"
                r"\mathrm{fl}_{32}(-\ln b/d))\big)"
            )
            st.caption(t("wavelengths.drift_notice"))
