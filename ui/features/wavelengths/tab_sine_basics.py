"""The Wavelengths page's "Sine basics" tab: seed 003's recap of y = A sin(Bx + C) + D
(amplitude, period, phase shift, vertical shift, frequency, wavelength) and seed 004's
waves of different frequency, before the pages use them for positions."""

from __future__ import annotations

import streamlit as st

from ui.features.wavelengths import figures, specs
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

FORMULA = (
    r"y = A\sin(Bx + C) + D,\qquad T = \frac{2\pi}{B},\quad f = \frac{1}{T} = \frac{B}{2\pi},"
    r"\quad \Delta x = -\frac{C}{B},\quad \lambda = T\ \ (x = p)"
)


def tab() -> None:
    st.header(t("wavelengths.sec_basics"))
    st.latex(FORMULA)
    columns = st.columns(4)
    a, b, c, d = (
        float(controls.slider(spec, t(f"wavelengths.{name}"), t(f"wavelengths.{name}_help"),
                              container=column))
        for spec, name, column in zip(specs.SINE, ("sin_a", "sin_b", "sin_c", "sin_d"), columns,
                                      strict=True)
    )  # fmt: skip
    buttons = st.columns(2)
    for column, name in zip(buttons, ("sin_x", "four_in_one"), strict=True):
        column.button(
            t(f"wavelengths.basics_{name}"),
            help=t(f"wavelengths.basics_{name}_help"),
            on_click=controls.assign,
            args=(specs.PRESETS[name],),
            key=f"wl_basics_{name}",
            icon=":material/replay:",
        )
    parts = figs.sine_parts(b, c)
    marks = {
        "midline": t("wavelengths.basics_midline", d=f"{d:g}"),
        "period": t("wavelengths.basics_period", period=f"{parts.period:.4g}"),
        "amplitude": t("wavelengths.basics_amplitude", a=f"{a:g}"),
        "phase": t("wavelengths.basics_phase", shift=f"{parts.shift:.4g}"),
    }
    fig = figs.sine_figure(
        a, b, c, d, marks=marks, height=controls.chart_height(400), stacked=controls.stacked()
    )
    alt = t("wavelengths.alt_basics", a=f"{a:g}", period=f"{parts.period:.4g}", d=f"{d:g}")
    controls.plot(fig, "wl_basics_chart", alt=alt)
    st.markdown(
        t("wavelengths.basics_readout", a=f"{a:g}", period=f"{parts.period:.4g}",
          frequency=f"{parts.frequency:.4g}", shift=f"{parts.shift:.4g}", d=f"{d:g}")
    )  # fmt: skip
    st.caption(t("wavelengths.basics_notice"))
    export.offer("sine_basics", fig)
