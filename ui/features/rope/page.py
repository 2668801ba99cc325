"""The RoPE attention-score viewer: S[m, n] depends on the contents and on m - n only."""

import numpy as np
import streamlit as st

import posenc
from ui.features.rope import data, figures
from ui.features.rope import specs as sp
from ui.features.rope import tab_base as rope_base
from ui.features.rope import tab_extension as rope_extension
from ui.features.rope import tab_models as rope_models
from ui.features.rope import tab_temperature as rope_temperature
from ui.plain.params import base_limits
from ui.plain.safe_text import markdown_text
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t
from ui.shared.notices import downsampled_notice

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

FORMULAS = {  # shared by both languages
    "intro": r"q_m = R(m\theta)\,W_q x_m,\quad k_n = R(n\theta)\,W_k x_n,\quad"
    r"\langle q_m, k_n\rangle = (W_q x_m)^\top R\big((n-m)\theta\big)\, W_k x_n",
    # The score, divided by sqrt(d) only when the toggle "rope_scale" is on.
    "score_scaled": r"S_{mn} = \frac{\langle q_m, k_n\rangle}{\sqrt d}",
    "score_raw": r"S_{mn} = \langle q_m, k_n\rangle",
    "scores": r"a_{mn} = \frac{e^{S_{mn}}}{\sum_{n'\le m} e^{S_{mn'}}}\ (n \le m),\qquad"
    r" a_{mn} = 0\ (n > m),\qquad o_m = \sum_{n} a_{mn} v_n",
    "scores_all": r"a_{mn} = \frac{e^{S_{mn}}}{\sum_{n'=0}^{L-1} e^{S_{mn'}}}\ \ (0 \le n < L),"
    r"\qquad o_m = \sum_{n} a_{mn} v_n",
    "pair": r"\begin{aligned} f_q(x_m, m) &= (W_q x_m)\,e^{i m\theta}\\ &= \begin{pmatrix}"
    r"\cos m\theta & -\sin m\theta\\ \sin m\theta & \cos m\theta\end{pmatrix}\begin{pmatrix}"
    r"q^{(1)}\\ q^{(2)}\end{pmatrix}\\ \langle f_q(x_m, m), f_k(x_n, n)\rangle &= \mathrm{Re}"
    r"\big[(W_q x_m)(W_k x_n)^{*}\, e^{i(m-n)\theta}\big]\end{aligned}",
    # One step per row: aligned math cannot wrap, and a projector or phone is narrow.
    "pair_steps": r"\begin{aligned} q &= W_q x_m = q^{(1)} + i\,q^{(2)}\\ k &= W_k x_n = k^{(1)}"
    r" + i\,k^{(2)},\quad k^{*} = k^{(1)} - i\,k^{(2)}\\ f_q(x_m, m) &= q\,e^{im\theta}\\ &= "
    r"\big(q^{(1)}\cos m\theta - q^{(2)}\sin m\theta\big)\\ &\quad + i\big(q^{(2)}\cos m\theta"
    r" + q^{(1)}\sin m\theta\big)\\ e^{i(m-n)\theta} &= \cos((m-n)\theta) + i\sin((m-n)\theta)\\"
    r" g(x_m, x_n, m-n) &= \mathrm{Re}\big[q\,k^{*} e^{i(m-n)\theta}\big]\\ &= \big(q^{(1)}k^{(1)}"
    r" + q^{(2)}k^{(2)}\big)\cos((m-n)\theta)\\ &\quad - \big(q^{(2)}k^{(1)} - q^{(1)}k^{(2)}\big)"
    r"\sin((m-n)\theta)\\ \langle f_q, f_k\rangle &= \big(q^{(1)}\cos m\theta - q^{(2)}\sin m\theta"
    r"\big)\\ &\qquad\times\big(k^{(1)}\cos n\theta - k^{(2)}\sin n\theta\big)\\ &\quad + \big("
    r"q^{(2)}\cos m\theta + q^{(1)}\sin m\theta\big)\\ &\qquad\times\big(k^{(2)}\cos n\theta"
    r" + k^{(1)}\sin n\theta\big)\\ &= g"
    r"\end{aligned}",
    # q, k: the contents before rotation (q_m of the intro is R(m theta) q).
    "compare": r"\text{(a) } q^\top k \qquad \text{(b) } (q + PE_m)^\top(k + PE_n)"
    r"\qquad \text{(c) } \big(R(m\theta)q\big)^\top R(n\theta)k = q_m^\top k_n",
    "compare_sentence": r"\text{(a) } (W_q x_m)^\top W_k x_n \qquad \text{(b) } \big(W_q(x_m"
    r" + PE_m)\big)^\top W_k(x_n + PE_n) \qquad \text{(c) } \big(R(m\theta)W_q x_m\big)^\top"
    r" R(n\theta) W_k x_n = q_m^\top k_n",
    "layouts": r"\mathrm{RoPE}_{\mathrm{split}}(Pq) = P\,\mathrm{RoPE}_{\mathrm{interleaved}}(q),"
    r"\quad (Pq)_c = q_{P(c)},\ \ P = (0, 2, \ldots, d-2,\; 1, 3, \ldots, d-1)",
    "bound": r"\Big|\sum_{j=0}^{d/2-1} h_j e^{i r\theta_j}\Big| \le \max_j"
    r" |h_{j+1} - h_j|\sum_{j=1}^{d/2} |S_j(r)|,\quad y(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}"
    r" |S_j(r)| \\ h_j = (q_{2j} + i\,q_{2j+1})(k_{2j} - i\,k_{2j+1}),\ h_{d/2} = 0,\quad"
    r" S_j(r) = \sum_{l=0}^{j-1} e^{i r\theta_l},\quad q = W_q x_m,\ k = W_k x_n",
    "same": r"\frac{\mathbb{E}\,\langle R(m\theta)x,\,R(n\theta)x\rangle}{\mathbb{E}\,|x|^2}"
    r" = \frac{2}{d}\sum_j \cos(r\theta_j),\qquad r = m - n",
}


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("rope", sp.SPECS)
    (bar := st.sidebar).subheader(t("rope.sidebar"))
    head_dim = controls.slider(
        sp.HEAD_DIM, t("rope.head_dim"), t("rope.head_dim_help"), container=bar
    )
    base_help = t("rope.base_help", **base_limits(sp.BASE))
    base = controls.number(sp.BASE, t("rope.base"), base_help, container=bar, format="%g")
    length = controls.slider(sp.LENGTH, t("rope.length"), t("rope.length_help"), container=bar)
    layout = controls.choice(
        sp.LAYOUT, t("rope.layout"), t("rope.layout_help"), container=bar,
        labels=[t(f"common.layout_{code}") for code in sp.LAYOUT.options],
        captions=[t(f"rope.layout_pairs_{code}") for code in sp.LAYOUT.options],
    )  # fmt: skip
    kinds = [t(f"rope.content_{name}") for name in sp.CONTENT.options]
    kind = controls.choice(
        sp.CONTENT, t("rope.content"), t("rope.content_help"), labels=kinds, container=bar
    )
    text = sp.TEXT.default
    if kind == "sentence":
        text = controls.text_input(sp.TEXT, t("rope.text"), t("rope.text_help"), container=bar)
    seed = controls.slider(sp.SEED, t("rope.seed"), t("rope.seed_help"), container=bar)
    model, content = (int(head_dim), float(base)), (kind, text, int(seed))
    POS = dict(x_title=t("rope.key_pos"), y_title=t("rope.query_pos"))

    def residual(view) -> str:
        return "—" if view.residual is None else f"{view.residual:.2e}"

    st.title(t("rope.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("rope.lead"))
            st.latex(FORMULAS["intro"])
    if kind == "sentence":
        tokens = data.tokenize(text) or (data.EMPTY_TOKEN,)
        shown = " | ".join(markdown_text(token) for token in tokens[:40])  # the visitor's text
        st.caption(t("rope.tokens", count=len(tokens), tokens=shown))

    def scores_tab() -> None:
        left, right = st.columns(2)
        scale = controls.toggle(sp.SCALE, t("rope.scale"), t("rope.scale_help"), container=left)
        how = controls.choice(
            sp.VIEW, t("rope.view"), t("rope.view_help"), container=right,
            labels=[t(f"rope.view_{code}") for code in sp.VIEW.options],
        )  # fmt: skip
        score = FORMULAS["score_scaled" if scale else "score_raw"]  # / sqrt(d) only if on
        softmax = FORMULAS["scores_all" if how == "attention_all" else "scores"]
        st.latex(score + r",\qquad " + softmax)
        settings = dict(
            head_dim=int(head_dim), base=float(base), length=length, layout=layout,
            kind=kind, text=text, seed=int(seed), scale=scale, view=how,
        )  # fmt: skip
        view = data.score_view(**settings)
        draw = dict(attention=how != "scores", height=controls.chart_height(620))
        fig = figs.score_heatmap(view.grid, **POS, tokens=view.tokens, **draw)
        controls.plot(fig, "rope_scores_chart", alt=t("rope.alt_scores", L=length))
        downsampled_notice(view.grid, length, length)
        label = t("rope.residual", max_abs=f"{view.max_abs:.3g}", shift=view.period)
        label = label if view.period else t("rope.no_period")
        st.metric(label, residual(view), help=t("rope.residual_help"))
        st.caption(t(f"rope.scores_notice_{how}"))
        if length > data.EXPORT_MAX:
            st.caption(t("rope.export_capped", n=data.EXPORT_MAX))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("rope.intro"))
                st.markdown(t("rope.notation_notes"))
        side = min(length, data.EXPORT_MAX)
        export.offer(
            "rope_scores", fig, matrix=lambda: data.rope_matrix(**settings), shape=(side, side)
        )

    def pair_tab() -> None:
        cols = st.columns(3)
        pair = controls.slider(sp.PAIR, t("rope.pair"), t("rope.pair_help"), container=cols[0])
        m = controls.slider(sp.POS_M, "m", t("rope.m_help"), container=cols[1])
        n = controls.slider(sp.POS_N, "n", t("rope.n_help"), container=cols[2])
        ps = data.pair_state(*model, layout, *content, pair, m, n)
        j, (dim1, dim2) = ps["pair"], ps["dims"]
        if j != pair:
            st.caption(t("rope.pair_clamped", pair=j))
        names = {key: t(f"rope.pair_{key}", m=m, n=n) for key in ("q", "k", "q_m", "k_n")}
        names |= {"x": t("rope.pair_axis", dim=dim1), "y": t("rope.pair_axis", dim=dim2)}
        controls.latex(FORMULAS["pair"])
        st.latex(
            rf"\angle q_m - \angle k_n = (\angle q - \angle k) + (m - n)\,\theta_{{{j}}} = "
            rf"{ps['start']:.4f} + ({m} - {n}) \cdot {ps['theta']:.6g} \equiv {ps['predicted']:.6f}"
        )
        left, right = controls.beside([3, 2])
        fig = figs.pair_figure(ps, labels=names, height=controls.chart_height(460))
        frames = data.pair_frames(*model, layout, *content, pair, m, n)
        legend = (t("rope.pair_q_m", m="{m}"), t("rope.pair_k_n", n="{n}"))  # per frame
        play = dict(play=t("rope.pair_play"), pause=t("rope.pair_pause"), names=legend,
                    legend_rows=4 if controls.phone() else 0)  # fmt: skip
        figs.animate_pair(fig, frames, **play)
        controls.plot(fig, "rope_pair_chart", left, alt=t("rope.alt_pair", pair=j, m=m, n=n))
        left.caption(t("rope.pair_animation"))
        for key in ("measured", "score"):
            right.metric(t(f"rope.pair_{key}"), f"{ps[key]:.6f}", help=t(f"rope.pair_{key}_help"))
        st.caption(t("rope.pair_notice", j=j, dim1=dim1, dim2=dim2, theta=f"{ps['theta']:.6g}"))
        with controls.expander(t("rope.pair_steps"), name="rope_pair_steps") as steps:
            if steps.open:
                controls.latex(FORMULAS["pair_steps"])
                (dot, cross, g), angle = ps["g"], rf"{m - n} \cdot {ps['theta']:.6g}"
                # Row by row: at large m - n, on a projector, one ran past the column.
                controls.latex(
                    rf"\begin{{aligned}} g &= {dot:.6f}\,\cos({angle})\\ &\quad - ({cross:.6f})\,"
                    rf"\sin({angle})\\ &= {g:.6f}\\ \langle q_m, k_n\rangle"
                    rf" &= {ps['score']:.6f}\end{{aligned}}"
                )
                st.caption(t("rope.pair_steps_typo"))
        export.offer("rope_pair", fig)

    def decay_tab() -> None:
        labels = [t(f"rope.decay_{code}") for code in sp.DECAY.options]
        decay = controls.choice(sp.DECAY, t("rope.decay"), t("rope.decay_help"), labels=labels)
        st.latex(FORMULAS[decay])
        curves = data.decay_curves(*model, length, decay, sp.DECAY_BASES)
        names = {b: t("rope.base_label", base=f"{b:,.0f}") for b in curves}
        distances = data.decay_distances(length)
        labels = dict(x_title=t("rope.distance"), y_title=t(f"rope.decay_{decay}"))
        height = controls.chart_height(440)
        fig = figs.decay_figure(distances, curves, names=names, **labels, height=height)
        controls.plot(fig, "rope_decay_chart", alt=t("rope.alt_decay", n=len(curves)))
        st.caption(t(f"rope.decay_notice_{decay}", d=head_dim))
        export.offer("rope_decay", fig, matrix=np.column_stack([distances, *curves.values()]))

    def compare_tab() -> None:
        st.latex(FORMULAS["compare_sentence" if kind == "sentence" else "compare"])
        views = data.compare_views(*model, length, layout, *content, True)
        titles = [t(f"rope.compare_{name}") for name in ("none", "additive", "rope")]
        grids = [v.grid for v in views]
        height = controls.chart_height(430)
        fig = figs.compare_heatmaps(
            grids, titles, **POS, tokens=views[0].tokens, height=height,
            stacked=controls.stacked(), panel_height=controls.chart_height(300),
        )  # fmt: skip
        controls.plot(fig, "rope_compare_chart", alt=t("rope.alt_compare", L=length))
        downsampled_notice(grids[0], length, length)
        for col, title, v in zip(st.columns(3), titles, views, strict=True):
            col.metric(
                t("rope.compare_residual", name=title), residual(v), help=t("rope.residual_help")
            )
        st.caption(t("rope.compare_notice") if views[0].period else t("rope.no_period"))
        if kind == "sentence":  # with W_q, W_k even the position-only term is not Toeplitz
            term = data.position_term(*model, length, text, int(seed))
            st.caption(
                t("rope.compare_notice_projected", residual=f"{term.residual:.3g}",
                  max_abs=f"{term.max_abs:.3g}")
            )  # fmt: skip
        export.offer("rope_compare", fig)

    def layouts_tab() -> None:
        perm = posenc.split_permutation(head_dim)
        st.latex(FORMULAS["layouts"])
        rows = [t("rope.layout_interleaved"), t("rope.layout_split")]
        fig = figs.layout_figure(head_dim, perm, row_labels=rows, x_title=t("rope.layout_dim"))
        controls.plot(fig, "rope_layout_chart", alt=t("rope.alt_layouts", d=head_dim))
        check = data.layout_check(*model, length, *content)
        for col, key in zip(st.columns(3), ("permuted", "vectors", "unpermuted"), strict=True):
            tip = t(f"rope.check_{key}_help")
            col.metric(t(f"rope.check_{key}"), f"{check[key]:.2e}", help=tip)
        st.caption(t("rope.layout_notice", rows=check["rows"], n=length))
        if check["step"] > 1:
            st.caption(t("rope.layout_sampled", step=check["step"], rows=check["rows"], n=length))
        export.offer("rope_layouts", fig)

    def extension_tab() -> None:
        rope_extension.tab(model, layout, content)

    def temperature_tab() -> None:
        rope_temperature.tab(model, layout, content)

    def models_tab() -> None:
        rope_models.tab()

    def base_tab() -> None:
        rope_base.tab()

    SECTIONS = {
        "scores": scores_tab,
        "pair": pair_tab,
        "decay": decay_tab,
        "compare": compare_tab,
        "layouts": layouts_tab,
        "extension": extension_tab,
        "temperature": temperature_tab,
        "models": models_tab,
        "base": base_tab,
    }

    controls.run_open_tab(sp.TAB, "rope", SECTIONS)
