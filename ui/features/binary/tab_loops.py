"""The Binary vs sinusoid page's "d = 3 loops" tab: three sines e(p) trace a path in 3-D;
high frequencies close a loop within the sequence and far-apart positions come close."""

from __future__ import annotations

import numpy as np
import streamlit as st

import posenc
from posenc import criteria
from ui.features.binary import figures
from ui.features.binary.specs import GAP, HIGH, LOW, SEED003_LOW
from ui.plain.tables import positions
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

# Positions drawn in 3-D, at most: a cap keeps a rerun at the largest settings within a
# few times the default one (issue #7).
MAX_3D = 2000


def tab(seq_len: int, d_model: int, base: float) -> None:
    """The d = 3 example at the sidebar's ``seq_len`` (``d_model`` and ``base`` give the
    slowest wavelength the notes compare with)."""
    st.subheader(t("binary.loop_header"))
    gap = int(controls.slider(GAP, t("binary.gap"), t("binary.gap_help")))
    st.button(
        t("binary.loop_evolution"), key="bin_lo_evolution", help=t("binary.loop_evolution_help"),
        on_click=controls.assign, args=(SEED003_LOW,), icon=":material/replay:",
    )  # fmt: skip
    shown = min(seq_len, MAX_3D)
    halves = controls.beside([1, 1])
    for column, specs, kind in zip(halves, (HIGH, LOW), ("high", "low"), strict=True):
        with column:
            _loop(kind, specs, shown, gap)
    if shown < seq_len:
        st.info(t("binary.loop_capped", shown=shown, total=seq_len))
    st.caption(t("binary.loop_lead", gap=gap))
    slowest = posenc.wavelengths(d_model, base)[-1]
    wavelength = positions(slowest)  # 2 pi at d = 2 is 6.283, not 6
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t("binary.loop_intro"))
            st.caption(t("binary.loop_notice", wavelength=wavelength, base=f"{base:g}", d=d_model))


def _loop(kind: str, specs, shown: int, gap: int) -> None:
    """One 3-D path (``kind`` "high" or "low") with its three frequency boxes."""
    st.subheader(t(f"binary.{kind}"))
    omegas = [
        float(controls.number(
            spec, t("binary.w", i=i), t("binary.w_help", i=i), container=box, format="%g",
        ))
        for i, (spec, box) in enumerate(zip(specs, st.columns(3), strict=True))
    ]  # fmt: skip
    path = criteria.sine_table(shown, omegas)
    pair = criteria.min_distance(path, min_gap=gap)
    fine = np.linspace(0, shown - 1, min(4000, 8 * shown - 7))
    fig = figs.trajectory_figure(
        path, pair, curve=criteria.sine_table(fine, omegas), position=t("common.position"),
        pair_label=t("binary.loop_pair"), height=controls.chart_height(440),
    )  # fmt: skip
    controls.plot(fig, f"bin_loop_{kind}", alt=t(f"binary.alt_loop_{kind}", n=shown))
    if kind == "low" and omegas == list(SEED003_LOW.values()):
        st.caption(t("binary.loop_evolution_note"))
    if pair.i < 0:
        st.caption(t("binary.loop_nopair", gap=gap))
    else:
        step = criteria.step_distances(path).mean()
        st.caption(
            t("binary.loop_result", i=pair.i, j=pair.j, distance=f"{pair.distance:.3g}",
              ratio=f"{pair.distance / step:.2g}" if step > 0 else "–", step=f"{step:.3g}",
              wavelength=f"{2 * np.pi / min(omegas):.4g}" if min(omegas) > 0 else "∞")
        )  # fmt: skip
    export.offer(f"binary_loop_{kind}", fig, matrix=path)
