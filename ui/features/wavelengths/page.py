"""Wavelength explorer: lambda_i and omega_i, curves, vectors, clock dials, frequency forms."""

import numpy as np
import streamlit as st

import posenc
from posenc import spectrum
from ui.features.wavelengths import data, figures, specs, view
from ui.features.wavelengths import tab_float_forms as float_forms
from ui.features.wavelengths import tab_sine_basics as sine_basics
from ui.shared import controls, export, figure_cache, grab
from ui.shared.i18n import lang, t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)
PRESENTER_DIALS = 4  # dials per row in presenter mode


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""

    def apply_preset(name: str) -> None:
        controls.assign(specs.PRESETS[name])
        if name in specs.PRESET_TABS:
            controls.open_tab(specs.TAB, "wavelengths", specs.PRESET_TABS[name])

    def show_curves() -> None:
        """After a click on pair i of the wavelength chart: open the tab that draws it."""
        controls.open_tab(specs.TAB, "wavelengths", "curves")

    def lambdas_tab() -> None:
        """lambda_i and omega_i for several bases, with the context overlay."""
        st.header(t("wavelengths.sec_lambda"))
        st.latex(
            r"\omega_i = b^{-2i/d},\quad \lambda_i = \frac{2\pi}{\omega_i} = 2\pi\,b^{2i/d},\quad"
            r"\frac{\lambda_{i+1}}{\lambda_i} = b^{2/d},\quad i = 0,\dots,\tfrac{d}{2}-1"
        )
        raw_bases = controls.text_input(
            specs.BASES, t("wavelengths.bases"), t("wavelengths.bases_help")
        )
        series = data.wavelength_series(d_model, base, specs.BASES.values(raw_bases))
        lam = series[0][1]
        classes = spectrum.classify_wavelengths(lam, seq_len)
        masks = {
            "full": ~classes.aliased & ~classes.beyond_context,
            "beyond": classes.beyond_context,
            "aliased": classes.aliased,
        }
        words = dict(
            titles=(t("wavelengths.fig_lambda"), t("wavelengths.fig_omega")),
            names=[t("wavelengths.series_base", base=f"{b:g}") for b, _ in series],
            class_names={
                key: t(f"wavelengths.class_{key}", count=int(mask.sum()))
                for key, mask in masks.items()
            },
            context_names=(
                t("wavelengths.line_context", context=seq_len),
                t("wavelengths.line_context_omega", context=seq_len),
            ),
            nyquist_names=(t("wavelengths.line_nyquist"), t("wavelengths.line_nyquist_omega")),
            x_title=t("wavelengths.pair_axis"),
        )
        fig_lambda = figs.wavelength_figure(
            pairs, series, masks, seq_len, **words, height=chart(440), stacked=controls.stacked()
        )
        grab.plot(
            fig_lambda, "wl_lambda_chart", specs.DIMS, high=half - 1,
            convert=lambda i: f"{2 * i}, {2 * i + 1}", then=show_curves,
            alt=t("wavelengths.alt_lambda", n=len(series), half=half, context=seq_len),
        )  # fmt: skip
        grab.hint(t("wavelengths.lambda_pick"))
        longest, bound = data.positions(lam[-1]), data.positions(2 * np.pi * base)
        st.caption(t("wavelengths.lambda_short_notice", longest=longest))
        counts = st.container(horizontal=True)  # one block, not four columns (#32)
        counts.metric(t("wavelengths.metric_pairs"), half)
        counts.metric(
            t("wavelengths.metric_beyond", context=seq_len),
            int(classes.beyond_context.sum()),
            help=t(
                "wavelengths.metric_beyond_help",
                beyond=int(classes.beyond_context.sum()),
                turning=int(
                    (classes.beyond_context & spectrum.sine_turns_back(lam, seq_len)).sum()
                ),
            ),
        )
        counts.metric(
            t("wavelengths.metric_aliased"),
            int(classes.aliased.sum()),
            help=t("wavelengths.metric_aliased_help"),
        )
        st.markdown(view.bases_markdown_in(lang(), d_model, tuple(b for b, _ in series), seq_len))
        export.offer("wavelengths", fig_lambda, matrix=np.column_stack([s[1] for s in series]))
        with controls.notes() as notes:
            if notes.open:
                st.caption(t("wavelengths.lambda_notice", longest=longest, bound=bound))

    def curves_tab() -> None:
        """Chosen dimensions over positions (the evolution article)."""
        st.header(t("wavelengths.sec_curves"))
        st.latex(r"PE_{(p,\,2i)} = \sin(\omega_i\,p),\qquad PE_{(p,\,2i+1)} = \cos(\omega_i\,p)")
        raw_dims = controls.text_input(
            specs.DIMS, t("wavelengths.dims"), t("wavelengths.dims_help")
        )
        chosen = specs.DIMS.values(raw_dims)
        dims = [j for j in chosen if j < d_model]
        if len(dims) < len(chosen):
            dropped = ", ".join(str(j) for j in chosen if j >= d_model)
            notice = "dims_dropped" if dims else "dims_fallback"
            st.warning(t(f"wavelengths.{notice}", dims=dropped, d_model=d_model, last=d_model - 1))
        dims = dims or [0, 1]
        stride = data.line_stride(seq_len)
        curve_positions = data.curve_samples(seq_len)
        if curve_positions is None:  # over the point budget: integer positions, subsampled
            curve_positions = np.arange(0, seq_len, stride)
        marked = curve_positions.size > seq_len and seq_len <= figs.MAX_MARKERS
        curves = posenc.encode_positions(curve_positions, d_model, base, dims=dims)
        fig_curves = figs.curves_figure(
            curve_positions,
            curves,
            dims,
            names=[t("wavelengths.series_dim", dim=j) for j in dims],
            x_title=t("common.position"),
            y_title=t("common.value"),
            height=chart(380),
            marked=marked,
        )
        shown = ", ".join(str(j) for j in dims)
        controls.plot(fig_curves, "wl_curves_chart", alt=t("wavelengths.alt_curves", dims=shown))
        if marked:
            st.caption(t("wavelengths.curves_dense"))
        if stride > 1:
            st.caption(
                t(
                    "wavelengths.subsampled",
                    stride=stride,
                    points=curve_positions.size,
                    limit=2 * stride,
                )
            )
        st.caption(t("wavelengths.curves_notice"))
        export.offer(
            "pe_columns",
            fig_curves,
            matrix=lambda: posenc.encode_positions(np.arange(seq_len), d_model, base, dims=dims),
            shape=(seq_len, len(dims)),
        )

    def vector_tab() -> None:
        """The encoding vector of chosen positions across dimensions (the Gentle Introduction)."""
        st.header(t("wavelengths.sec_vector"))
        st.latex(r"PE_{(p,\,2i)} = \sin\!\left(\frac{p}{b^{2i/d}}\right),\qquad i = 0,1,\dots")
        vec_cols = st.columns([2, 2, 2])
        raw_positions = controls.text_input(
            specs.POSITIONS,
            t("wavelengths.positions"),
            t("wavelengths.positions_help"),
            container=vec_cols[0],
        )
        mode = controls.choice(
            specs.VEC_MODE,
            t("wavelengths.vec_mode"),
            t("wavelengths.vec_mode_help"),
            labels=[t(f"wavelengths.vec_mode_{m}") for m in specs.VEC_MODE.options],
            container=vec_cols[1],
        )
        count = controls.slider(
            specs.VEC_COUNT,
            t("wavelengths.vec_count"),
            t("wavelengths.vec_count_help"),
            container=vec_cols[2],
            maximum=half,
        )
        ks = list(specs.POSITIONS.values(raw_positions))
        shown = min(count, half)
        if mode == "sin_pairs":
            x_axis, x_title = np.arange(shown), t("wavelengths.vec_x_pairs")
            columns = 2 * x_axis
        else:
            x_axis = columns = np.arange(2 * shown)
            x_title = t("wavelengths.vec_x_dims")
        vectors = posenc.encode_positions(ks, d_model, base, dims=columns)
        fig_vec = figs.vectors_figure(
            x_axis, vectors, ks, x_title, height=chart(300), stacked=controls.stacked()
        )
        listed = ", ".join(str(k) for k in ks)
        controls.plot(
            fig_vec, "wl_vector_chart", alt=t("wavelengths.alt_vectors", positions=listed)
        )
        if count >= half:  # the slider ends at d/2
            st.caption(t("wavelengths.vec_all_pairs", half=half, d_model=d_model))
        st.caption(t("wavelengths.vector_notice"))
        export.offer("pe_vectors", fig_vec, matrix=vectors)

    def clock_tab() -> None:
        """Clock view: each pair a hand on its dial, animated."""
        st.header(t("wavelengths.sec_clock"))
        st.latex(r"(x_i, y_i) = (\sin\omega_i p,\ \cos\omega_i p) = (PE_{(p,2i)},\ PE_{(p,2i+1)})")
        clock_cols = st.columns(3)
        p0 = controls.slider(
            specs.CLOCK_P,
            t("wavelengths.clock_p"),
            t("wavelengths.clock_p_help"),
            container=clock_cols[0],
        )
        step = controls.slider(
            specs.CLOCK_STEP,
            t("wavelengths.clock_step"),
            t("wavelengths.clock_step_help"),
            container=clock_cols[1],
        )
        n_dials = controls.slider(
            specs.DIALS,
            t("wavelengths.dials"),
            t("wavelengths.dials_help"),
            container=clock_cols[2],
        )
        dial = data.dial_pairs(half, n_dials)
        frame_positions = p0 + step * np.arange(figs.MAX_FRAMES)
        hand_x, hand_y, _ = spectrum.clock_hands(frame_positions, dial, d_model, base)
        lam = posenc.wavelengths(d_model, base)[dial]
        fig_clock = figs.clock_figure(
            [
                t("wavelengths.dial_label", pair=int(i), wavelength=f"{w:.4g}")
                for i, w in zip(dial, lam, strict=True)
            ],
            frame_positions,
            hand_x,
            hand_y,
            play=t("wavelengths.play"),
            pause=t("wavelengths.pause"),
            row_height=175,
            stacked=controls.phone(),
            # A projector with the sidebar open leaves ~560 px: six dials a row would be
            # ~90 px wide in rows 262 px tall. Four a row at the normal height fill it.
            columns=PRESENTER_DIALS if controls.presenting() and not controls.phone() else None,
        )
        controls.plot(
            fig_clock, "wl_clock_chart", alt=t("wavelengths.alt_clock", n=dial.size, p=p0)
        )
        if dial.size < half:
            listed = ", ".join(str(i) for i in dial)
            st.caption(t("wavelengths.dials_subset", shown=dial.size, total=half, pairs=listed))
        st.caption(t("wavelengths.clock_notice"))
        export.offer("clock", fig_clock)

    controls.setup_page("wavelengths", specs.SPECS)
    seq_len, d_model, base = controls.shared_controls()
    half = d_model // 2
    pairs = np.arange(half)
    chart = controls.chart_height

    st.title(t("wavelengths.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("wavelengths.intro"))
    if controls.compact():  # a projector or a phone: one line, the chart within the screen
        label = t("wavelengths.presets").rstrip(":：")
        box = controls.popover(label, name="wl_presets", icon=":material/replay:")
        preset_cols = [box] * 3 if box.open else []
    else:
        # One row block (columns were four, each sent on every rerun: issue #32).
        preset_cols = [st.container(horizontal=True, vertical_alignment="center")] * 3
        preset_cols[0].caption(t("wavelengths.presets"), width="content")
    for column, name in zip(preset_cols[1:], ("003", "004") if preset_cols else (), strict=True):
        column.button(
            t(f"wavelengths.preset_{name}"),
            help=t(f"wavelengths.preset_{name}_help"),
            on_click=apply_preset,
            args=(f"seed{name}",),
            key=f"wl_preset_{name}",
            icon=":material/replay:",
        )

    # One lazy tab per section; the section functions read the page-wide values above.
    SECTIONS = {
        "lambdas": lambdas_tab,
        "curves": curves_tab,
        "vector": vector_tab,
        "clock": clock_tab,
        "forms": lambda: float_forms.tab(seq_len, d_model, base),
        "basics": sine_basics.tab,
    }

    controls.run_open_tab(specs.TAB, "wavelengths", SECTIONS)
