"""The rotation demo: PE[p + k] = PE[p] T(k), checked live for any real k."""

import numpy as np
import streamlit as st

import posenc
from ui.features.rotation import data, figures, specs
from ui.features.rotation import tab_fit as rotation_fit
from ui.shared import controls, export, figure_cache, grab
from ui.shared.i18n import t

EPS = np.finfo(np.float64).eps
figs = figure_cache.builders(figures)  # built once for all sessions (#23)


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""

    def pair_block() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The window of T(k) around the chosen pair, and the pair's 2 x 2 block."""
        idx, window = data.t_window(k, d_model, base, layout, pair)
        at = np.searchsorted(idx, dims)  # idx is sorted and holds the pair
        return idx, window, window[np.ix_(at, at)]

    def matrix_tab() -> None:
        """T(k) itself, and one block magnified."""
        st.header(t("rotation.t_header"))
        idx, window, block = pair_block()
        left, right = controls.beside([3, 2])
        fig_t = figs.matrix_figure(
            idx, window, dims, axis_title=t("rotation.axis_dim"), height=chart(520)
        )
        controls.plot(fig_t, "rot_t_chart", left, alt=t("rotation.alt_t", k=k))
        if idx.size < d_model:
            left.caption(t("rotation.t_window", runs=data.runs(idx), d_model=d_model))
        left.caption(t("rotation.t_lead"))
        right.markdown(t("rotation.block_header", pair=pair))
        controls.plot(
            figs.block_figure(block, dims, axis_title=t("rotation.axis_dim"), height=chart(280)),
            "rot_block_chart",
            right,
            alt=t("rotation.alt_block", pair=pair, k=k),
        )
        st.latex(figs.block_latex(pair, k, block))
        st.latex(figs.angle_latex(pair, d_model, base, k, omega))
        with left:
            export.offer(
                "rotation_T", fig_t, matrix=lambda: data.t_export(k, d_model, base, layout),
                shape=data.t_export_shape(d_model),
            )  # fmt: skip
        if d_model > data.EXPORT_DIMS:
            size = (
                f"{d_model * d_model * np.dtype(np.float64).itemsize / 1e6:.3g}"  # the dense T(k)
            )
            left.caption(
                t("rotation.t_export_blocks", limit=data.EXPORT_DIMS, d=d_model, size=size)
            )
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("rotation.lead"))
                st.caption(t("rotation.t_notice"))

    def check_tab() -> None:
        """The live check over every position."""
        st.header(t("rotation.check_header"))
        st.markdown(t("rotation.derive_intro"))  # the derivation before the check that uses it
        controls.latex(figs.BLOCK_DERIVATION)
        st.latex(figs.CHECK_FORMULA)
        coef = controls.choice(
            specs.COEF, t("rotation.coef"), t("rotation.coef_help"),
            labels=[t(f"rotation.coef_{name}") for name in specs.COEF.options],
        )  # fmt: skip
        if coef in figs.COEFFICIENT_FORMULAS:
            st.latex(figs.COEFFICIENT_FORMULAS[coef])
        setting = (seq_len, d_model, base, k, layout)
        check = data.coefficient_check(*setting, coef)
        metrics = st.columns(3)
        metrics[0].metric(t("rotation.check_metric", L=seq_len), f"{check.worst:.2e}")
        metrics[1].metric(t("rotation.check_at"), check.worst_at)
        bound = EPS * (seq_len - 1 + abs(k))  # float64 rounding of the largest angle
        metrics[2].metric(
            t("rotation.check_bound"),
            f"{bound:.2e}",
            help=t("rotation.check_bound_help", wrong=f"{data.wrong_index_residual(*setting):.2g}"),
        )
        fig_r = figs.residual_figure(
            check.positions,
            check.residuals,
            k,
            names={key: t(f"rotation.{key}_name") for key in ("residual", "rounding")},
            x_title=t("rotation.axis_p"),
            y_title=t("rotation.axis_residual"),
            height=chart(340),
        )
        controls.plot(fig_r, "rot_check_chart", alt=t("rotation.alt_check", k=k))
        if check.pool > 1:
            st.caption(t("rotation.check_pooled", pool=check.pool))
        note = data.coefficient_note(coef, d_model, base, k)
        if note is not None:
            st.info(t(note[0], **note[1]), icon=":material/science:")
        elif check.worst <= bound:
            st.caption(t("rotation.check_lead", L=seq_len, worst=f"{check.worst:.2e}",
                         bound=f"{bound:.2e}"))  # fmt: skip
        with controls.notes() as notes:
            if notes.open:
                if note is None:
                    st.caption(t("rotation.check_notice"))
        export.offer(
            "rotation_check",
            fig_r,
            matrix=lambda: np.column_stack([np.arange(seq_len), check.full]),
            shape=(seq_len, 2),
        )

    def position_slider() -> int:
        """Position p: drawn in the tabs whose view depends on it (circle, conventions, dot)."""
        return int(controls.slider(specs.POS, t("rotation.p"), t("rotation.p_help")))

    def circle_tab() -> None:
        """One pair on its circle."""
        st.header(t("rotation.circle_header"))
        p = position_slider()
        circle = data.circle(seq_len, omega)
        left, right = controls.beside([3, 2])
        rest = figs.wrap_angle(omega * k)  # the turn from p to p + k, in (-pi, pi]
        names = {
            "positions": t("rotation.circle_positions"),
            "arc": t("rotation.circle_arc", angle=f"{rest:.4f}"),
        }
        fig_c = figs.circle_figure(
            circle.positions, circle.angles, p, k, omega, names=names,
            p_title=t("rotation.axis_p"), height=chart(480),
        )  # fmt: skip
        alt = t("rotation.alt_circle", p=p, k=k, angle=f"{rest:.4f}")
        grab.plot(fig_c, "rot_circle_chart", specs.POS, where=left, alt=alt)
        grab.hint(t("rotation.circle_pick"), left)
        turns = round((omega * k - rest) / (2 * np.pi))
        right.latex(
            rf"\omega_{{{pair}}}(p+k) - \omega_{{{pair}}}\,p = \omega_{{{pair}}}\,k"
            rf" = {figs.num(omega * k, 4)}\ \mathrm{{rad}}"
        )
        way = t("rotation.turns_back" if turns < 0 else "rotation.turns_forward", n=abs(turns))
        right.markdown(t("rotation.circle_angle", turns=way, rest=f"{rest:.6g}"))
        if p >= seq_len:
            right.caption(t("rotation.circle_outside", p=p, L=seq_len))
        if circle.step > 1:
            right.caption(t("rotation.circle_subsampled", step=circle.step))
        right.caption(t("rotation.circle_notice"))
        with right:
            export.offer("rotation_pair", fig_c)

    def conventions_tab() -> None:
        """Row vectors (the overview article) and column vectors (the evolution article)."""
        st.header(t("rotation.conv_header"))
        p = position_slider()
        block = pair_block()[2]
        row, moved_row, moved_col, _ = data.pair_rows(p, k, d_model, base, layout, pair)
        st.markdown(t("rotation.conv_row", pair=pair, p=p))
        st.latex(
            figs.row_latex(pair, row, block, moved_row, label=t("rotation.latex_pair", pair=pair))
        )
        st.markdown(t("rotation.conv_col", pair=pair, p=p))
        st.latex(figs.column_latex(block, row, moved_col))
        gap, used = data.convention_gap(seq_len, d_model, base, k, layout)
        st.markdown(
            t("rotation.conv_measured", gap=f"{gap:.2e}", L=seq_len, dims=used, d_model=d_model)
        )
        with controls.expander(t("rotation.derivation"), name="rot_derivation") as derivation:
            if derivation.open:
                controls.latex(figs.ROTATION_DERIVATION)
                st.markdown(t("rotation.derivation_pe", pair=pair))
                st.latex(figs.clockwise_latex(pair, k, omega, row))
        with controls.notes() as notes:
            if notes.open:
                st.caption(t("rotation.seed_typo"))

    def dot_tab() -> None:
        """The dot product cannot tell before from after."""
        st.header(t("rotation.dot_header"))
        p = position_slider()
        st.latex(
            r"PE_{(p)} \cdot PE_{(p+k)} = \sum_{i=0}^{d/2-1} \cos(\omega_i k),\qquad "
            r"\lVert PE_{(p)} - PE_{(p+k)} \rVert = 2\sqrt{\textstyle\sum_i \sin^2(\omega_i k/2)}"
            r" = \sqrt{d - 2\,PE_{(p)} \cdot PE_{(p+k)}}"
        )
        curve = data.dot_curve(seq_len, d_model, base, k)
        measured, formula = data.dot_at(p, k, d_model, base)
        at_k = (formula, float(posenc.offset_distance(k, d_model, base)))
        fig_d = figs.dot_figure(
            curve.k,
            curve.dot,
            curve.distance,
            k,
            at_k,
            titles=(t("rotation.dot_title"), t("rotation.distance_title")),
            height=chart(360),
            stacked=controls.stacked(),
            picks=data.dot_picks(seq_len, d_model, base, k)[:3],
            pick_text=t("rotation.dot_pick_hover"),
        )
        grab.plot(fig_d, "rot_dot_chart", specs.K, alt=t("rotation.alt_dot", k=k, L=seq_len))
        grab.hint(t("rotation.dot_pick"))
        st.caption(t("rotation.dot_notice"))
        st.markdown(
            t(
                "rotation.dot_measured",
                p=p,
                measured=f"{measured:.12f}",
                formula=f"{formula:.12f}",
                diff=f"{abs(measured - formula):.1e}",
            )
        )
        with controls.notes() as notes:
            if notes.open:
                st.caption(t("rotation.dot_sampled", step=f"{curve.step:.3g}", n=curve.k.size))
        export.offer(
            "rotation_dot",
            fig_d,
            matrix=lambda: np.column_stack([curve.k, curve.dot, curve.distance]),
            shape=(curve.k.size, 3),
        )

    controls.setup_page("rotation", specs.SPECS)
    seq_len, d_model, base = controls.shared_controls()
    chart = controls.chart_height
    half = d_model // 2

    st.title(t("rotation.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("rotation.lead"))
            st.latex(
                r"PE_{(p+k)} = PE_{(p)}\,T(k),\quad "
                r"T(k) = \operatorname{diag}\big(\Phi_0(k), \dots, \Phi_{d/2-1}(k)\big),\quad "
                r"\Phi_i(k) = \begin{bmatrix}\cos\omega_i k & -\sin\omega_i k \\"
                r" \sin\omega_i k & \cos\omega_i k\end{bmatrix},\quad \omega_i = b^{-2i/d}"
            )
    row = st.container(horizontal=True, gap="medium")  # one block, not four columns (#32)
    k = float(
        controls.number(specs.K, t("rotation.k"), t("rotation.k_help"), container=row, format="%g")
    )
    asked = int(
        controls.number(specs.PAIR, t("rotation.pair"), t("rotation.pair_help"), container=row)
    )
    layout = controls.choice(
        specs.LAYOUT,
        t("rotation.layout"),
        t("rotation.layout_help"),
        labels=[t(f"common.layout_{code}") for code in specs.LAYOUT.options],
        captions=[t("rotation.layout_interleaved"), t("rotation.layout_split")],
        container=row,
    )
    pair = min(asked, half - 1)
    if pair != asked:
        st.info(t("rotation.pair_clamped", asked=asked, d_model=d_model, last=half - 1))
    dims = data.pair_indices(d_model, pair, layout)
    omega = float(posenc.frequencies(d_model, base)[pair])

    # One lazy tab per section; the section functions read the page-wide values above.
    SECTIONS = {
        "matrix": matrix_tab,
        "check": check_tab,
        "circle": circle_tab,
        "conventions": conventions_tab,
        "dot": dot_tab,
        "fit": lambda: rotation_fit.tab((seq_len, d_model, base, k, layout), pair, dims),
    }

    controls.run_open_tab(specs.TAB, "rotation", SECTIONS)
