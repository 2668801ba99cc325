"""The "Learned tables" tab of the schemes page: the sinusoid, MiniLM's learned table and
an uploaded one, measured the same way (``posenc.tables``)."""

from __future__ import annotations

import numpy as np
import streamlit as st

import posenc
from posenc.tables import dominant_frequencies
from ui.features.schemes import data, figures
from ui.features.schemes import specs as sp
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t
from ui.shared.learned import uploaded_embedding

figs = figure_cache.builders(figures)  # built once for all sessions (#23)


def percent(x: float) -> str:
    return f"{x:.1%}" if x >= 1e-3 else f"{x:.1e}"


def tables() -> dict[str, data.TableAnalysis]:
    """The analyses drawn: sinusoid, MiniLM and, when a usable table is uploaded, it."""
    found = {name: data.analysis(name) for name in data.TABLES}
    upload = uploaded_embedding()
    if upload is not None and data.usable(upload):
        found["upload"] = data.upload_analysis(upload)
    elif upload is not None:
        st.caption(t("schemes.upload_unusable"))
    return found


def tab(gram_formula: str) -> None:
    found = tables()
    sin, mini = found["sinusoidal"], found["learned"]
    names = {code: t(f"schemes.name_{code}") for code in (*data.CURVES, "t5")}
    rows = found["upload"].pca.shape[0] if "upload" in found else 0
    names["upload"] = t("schemes.table_upload", rows=rows)
    titles = [t(f"schemes.table_{name}") for name in data.TABLES]
    titles += [names["upload"]] if "upload" in found else []
    stacked = controls.stacked()
    labels = [t(f"schemes.pca_{code}") for code in sp.PCA.options]
    three = controls.choice(sp.PCA, t("schemes.pca"), t("schemes.pca_help"), labels=labels) == "3d"
    build = figs.pca3_figure if three else figs.pca_figure
    fig = build(
        [a.pca[:, : 3 if three else 2] for a in found.values()], titles=titles,
        position=t("schemes.position"), axis=t("schemes.pc"), stacked=stacked,
        height=controls.chart_height(460 if three else 400),
        panel_height=controls.chart_height(380 if three else 320),
    )  # fmt: skip
    controls.plot(fig, "sc_pca_chart", alt=t("schemes.alt_pca", n=3 if three else 2))
    sin_pc, mini_pc = (percent(float(a.explained[: 3 if three else 2].sum())) for a in (sin, mini))
    step = float(dominant_frequencies(mini.pca[:, :2])[0])  # how fast MiniLM's PC plane turns
    turn = dict(step=f"{step:.2f}", period=f"{2 * np.pi / step:.1f}")
    st.caption(t("schemes.pca_notice", sin_pc=sin_pc, mini_pc=mini_pc, **turn))
    st.latex(gram_formula)
    short = [t(f"schemes.short_{name}") for name in data.TABLES]
    short += [t("schemes.short_upload")] if "upload" in found else []
    for key in ("toeplitz", "shift"):
        cols = controls.cells(len(found))
        for col, name, a in zip(cols, short, found.values(), strict=True):
            label = t(f"schemes.metric_{key}", name=name)
            col.metric(label, percent(getattr(a, key)), help=t(f"schemes.metric_{key}_help"))
    gram = figs.gram_figure(
        [a.gram for a in found.values()], titles=titles, x_title=t("schemes.position"),
        y_title=t("schemes.position"), stacked=stacked, height=controls.chart_height(380),
        panel_height=controls.chart_height(300),
    )  # fmt: skip
    controls.plot(gram, "sc_gram_chart", alt=t("schemes.alt_gram"))
    mini_toe, mini_shift = percent(mini.toeplitz), percent(mini.shift)
    st.caption(t("schemes.gram_notice", mini_toe=mini_toe, mini_shift=mini_shift))
    freq = figs.frequency_figure(
        {name: a.frequencies for name, a in found.items()}, data.sinusoid_omega(), names=names,
        omega_name=t("schemes.omega"), x_title=t("schemes.column"),
        y_title=t("schemes.frequency"), height=controls.chart_height(380),
    )  # fmt: skip
    controls.plot(freq, "sc_freq_chart", alt=t("schemes.alt_freq"))
    slow = int(np.count_nonzero(np.isclose(mini.frequencies, 2 * np.pi / mini.cosine.size)))
    st.caption(t("schemes.freq_notice", slow=slow, cols=mini.frequencies.size))
    cosine = figs.cosine_figure(
        {name: a.cosine for name, a in found.items()}, names=names,
        x_title=t("schemes.cos_distance"), y_title=t("schemes.cosine"),
        height=controls.chart_height(340),
    )  # fmt: skip
    controls.plot(cosine, "sc_cos_chart", alt=t("schemes.alt_cos"))
    near = {f"{key}{r}": f"{a.cosine[r]:.2f}" for key, a in (("sin", sin), ("mini", mini))
            for r in (1, 100)}  # fmt: skip
    st.caption(t("schemes.cos_notice", **near))
    with controls.notes() as notes:
        if notes.open:
            sha = posenc.learned_provenance(data.LEARNED)["data_sha256"]
            st.markdown(t("schemes.learned_notes", sha=sha, rows=data.UPLOAD_ROWS))
    export.offer("schemes_learned", fig)
