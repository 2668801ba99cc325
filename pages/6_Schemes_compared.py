"""Schemes compared: none, sinusoidal, learned, T5, ALiBi, RoPE, xPos, partial RoPE and
p-RoPE on the same axes (issue 22)."""

import numpy as np
import streamlit as st

import posenc
from posenc.tables import dominant_frequencies, toeplitz_deviation
from ui import controls, export
from ui import schemes_data as data
from ui.figures import schemes as figs
from ui.i18n import t
from ui.specs import schemes as sp

controls.setup_page("schemes", sp.SPECS)
(bar := st.sidebar).subheader(t("schemes.sidebar"))
head_dim = controls.slider(
    sp.HEAD_DIM, t("schemes.head_dim"), t("schemes.head_dim_help"), container=bar
)
train = controls.slider(sp.TRAIN, t("schemes.train"), t("schemes.train_help"), container=bar)
head_dim, train = int(head_dim), int(train)
NAMES = {code: t(f"schemes.name_{code}") for code in (*data.CURVES, "t5")}
FORMULAS = {  # shared by both languages
    "rotary": r"\frac{\mathbb{E}\,\langle f(x, m), f(x, n)\rangle}{\mathbb{E}\,|x|^2}"
    r" = \frac{2}{d}\sum_j w_j(r) \cos(r\theta_j),\quad r = m - n",
    "alibi": r"B_h[m, n] = -s_h\,|m - n|,\qquad \zeta_j = \frac{2j/d + 0.4}{1.4}",
    "gram": r"G = P P^\top,\qquad \frac{\lVert G - \mathcal{T}(G)\rVert_F}{\lVert G\rVert_F},"
    r"\qquad \min_W \frac{\lVert P_{p} W - P_{p+1}\rVert_F}{\lVert P_{p+1}\rVert_F}",
}


def percent(x: float) -> str:
    return f"{x:.1%}" if x >= 1e-3 else f"{x:.1e}"


st.title(t("schemes.title"))
with controls.lead():  # folded on a projector or a phone: the chart comes first
    st.markdown(t("schemes.lead"))
tabs = controls.lazy_tabs(sp.TAB, "schemes", sp.TAB_NAMES)

with tabs["distance"]:
    if tabs["distance"].open:
        st.latex(FORMULAS["rotary"])
        r, curves, t5 = data.distance_curves(head_dim, train)
        labels = dict(x_title=t("schemes.distance"), y_title=t("schemes.score_part"))
        fig = figs.distance_figure(
            r, curves, t5, names=NAMES, train=train, **labels, t5_title=t("schemes.t5_bucket"),
            train_label=t("schemes.train_mark"), height=controls.chart_height(560),
        )  # fmt: skip
        controls.plot(fig, "sc_distance_chart")
        rows = posenc.learned_position_embeddings(data.LEARNED).shape[0]
        rest = f"{1 - data.PARTIAL:.0%}"
        st.caption(
            t("schemes.distance_notice", rows=rows, t5_max=data.T5_MAX_DISTANCE,
              t5_last=data.T5_BUCKETS // 2 - 1, rest=rest)
        )  # fmt: skip
        st.caption(t("schemes.distance_how"))
        with controls.notes():
            st.markdown(t("schemes.distance_notes"))
            st.latex(FORMULAS["alibi"])
        export.offer("schemes_distance", fig, matrix=np.column_stack([r, *curves.values(), t5]))

with tabs["matrix"]:
    if tabs["matrix"].open:
        length = int(controls.slider(sp.LENGTH, t("schemes.length"), t("schemes.length_help")))
        mats = data.matrices(head_dim, length)
        titles = {key: t(f"schemes.mtitle_{key}") for key in mats}
        fig = figs.matrix_figure(
            mats, titles=titles, x_title=t("schemes.key_pos"), y_title=t("schemes.query_pos"),
            stacked=controls.stacked(), height=controls.chart_height(380),
            panel_height=controls.chart_height(300),
        )  # fmt: skip
        controls.plot(fig, "sc_matrix_chart")
        st.caption(t("schemes.matrix_notice", dev=percent(toeplitz_deviation(mats["learned"]))))
        st.caption(t("schemes.matrix_how"))
        with controls.notes():
            st.markdown(t("schemes.matrix_notes"))
        export.offer("schemes_matrices", fig)

with tabs["properties"]:
    if tabs["properties"].open:
        columns = [t(f"schemes.col_{c}") for c in ("scheme", "kind", "params", "beyond", "models")]
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        order = ("nope", "sinusoidal", "learned", "t5", "alibi", "rope", "xpos", "partial")
        lines += [f"| {t(f'schemes.row_{code}')} |" for code in (*order, "prope")]
        st.markdown("\n".join(lines))
        st.caption(t("schemes.properties_notice"))
        with controls.notes():
            st.markdown(t("schemes.properties_notes"))

with tabs["learned"]:
    if tabs["learned"].open:
        found = {name: data.analysis(name) for name in data.TABLES}
        sin, mini = found["sinusoidal"], found["learned"]
        tables = [t(f"schemes.table_{name}") for name in data.TABLES]
        stacked = controls.stacked()
        labels = [t(f"schemes.pca_{code}") for code in sp.PCA.options]
        dims = controls.choice(sp.PCA, t("schemes.pca"), t("schemes.pca_help"), labels=labels)
        three = dims == "3d"
        build = figs.pca3_figure if three else figs.pca_figure
        fig = build(
            [a.pca[:, : 3 if three else 2] for a in found.values()], titles=tables,
            position=t("schemes.position"), axis=t("schemes.pc"), stacked=stacked,
            height=controls.chart_height(460 if three else 400),
            panel_height=controls.chart_height(380 if three else 320),
        )  # fmt: skip
        controls.plot(fig, "sc_pca_chart")
        shares = (float(a.explained[: 3 if three else 2].sum()) for a in (sin, mini))
        sin_pc, mini_pc = (percent(x) for x in shares)
        step = float(dominant_frequencies(mini.pca[:, :2])[0])  # how fast MiniLM's PC plane turns
        turn = dict(step=f"{step:.2f}", period=f"{2 * np.pi / step:.1f}")
        st.caption(t("schemes.pca_notice", sin_pc=sin_pc, mini_pc=mini_pc, **turn))
        st.latex(FORMULAS["gram"])
        short = [t(f"schemes.short_{name}") for name in data.TABLES]
        for key, values in (("toeplitz", [a.toeplitz for a in found.values()]),
                            ("shift", [a.shift for a in found.values()])):  # fmt: skip
            for col, name, value in zip(controls.cells(2), short, values, strict=True):
                label = t(f"schemes.metric_{key}", name=name)
                col.metric(label, percent(value), help=t(f"schemes.metric_{key}_help"))
        gram = figs.gram_figure(
            [a.gram for a in found.values()], titles=tables, x_title=t("schemes.position"),
            y_title=t("schemes.position"), stacked=stacked, height=controls.chart_height(380),
            panel_height=controls.chart_height(300),
        )  # fmt: skip
        controls.plot(gram, "sc_gram_chart")
        mini_toe, mini_shift = percent(mini.toeplitz), percent(mini.shift)
        st.caption(t("schemes.gram_notice", mini_toe=mini_toe, mini_shift=mini_shift))
        omega = data.sinusoid_omega()
        freq = figs.frequency_figure(
            {name: a.frequencies for name, a in found.items()}, omega, names=NAMES,
            omega_name=t("schemes.omega"), x_title=t("schemes.column"),
            y_title=t("schemes.frequency"), height=controls.chart_height(380),
        )  # fmt: skip
        controls.plot(freq, "sc_freq_chart")
        slowest = 2 * np.pi / mini.cosine.size
        slow = int(np.count_nonzero(np.isclose(mini.frequencies, slowest)))
        st.caption(t("schemes.freq_notice", slow=slow, cols=mini.frequencies.size))
        cosine = figs.cosine_figure(
            {name: a.cosine for name, a in found.items()}, names=NAMES,
            x_title=t("schemes.cos_distance"), y_title=t("schemes.cosine"),
            height=controls.chart_height(340),
        )  # fmt: skip
        controls.plot(cosine, "sc_cos_chart")
        near = {f"{key}{r}": f"{a.cosine[r]:.2f}" for key, a in (("sin", sin), ("mini", mini))
                for r in (1, 100)}  # fmt: skip
        st.caption(t("schemes.cos_notice", **near))
        with controls.notes():
            sha = posenc.learned_provenance(data.LEARNED)["data_sha256"]
            st.markdown(t("schemes.learned_notes", sha=sha))
        export.offer("schemes_learned", fig)
