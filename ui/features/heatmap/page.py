"""Heatmap: the sinusoidal table cell by cell, as frameworks write it, added to word
embeddings, and how alike two positions are (PE PE^T)."""

import streamlit as st

import posenc
from posenc.frameworks import framework_frequencies
from ui.features.heatmap import data, figures, view
from ui.features.heatmap import specs as spec
from ui.features.heatmap.tab_frameworks import tab as draw_frameworks
from ui.shared import controls, export, figure_cache, grab
from ui.shared.i18n import t
from ui.shared.learned import SIMILARITY_ROWS, learned_grid, learned_similarity, uploaded_embedding
from ui.shared.notices import downsampled_notice

figs = figure_cache.builders(figures)  # built once for all sessions (#23)


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("heatmap", spec.SPECS)
    st.title(t("heatmap.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("heatmap.lead"))
            st.latex(
                r"PE_{(p,\,2i)} = \sin(\omega_i\, p),\quad PE_{(p,\,2i+1)} = \cos(\omega_i\, p),"
                r"\quad\omega_i = b^{-2i/d},\quad "
                r"\lambda_i = \frac{2\pi}{\omega_i} = 2\pi\, b^{2i/d}"
            )
    # A row of preset buttons here delayed the first chart (issue #7): in a popover.
    presets = controls.popover(
        t("heatmap.presets"), name="hm_presets", icon=":material/photo_library:",
        help=t("heatmap.presets_help"),
    )  # fmt: skip
    for name, values in spec.PRESETS.items() if presets.open else ():
        presets.button(
            t(f"heatmap.preset_{name}"), key=f"hm_preset_{name}", on_click=view.apply_preset,
            args=(values,), kwargs={"show_table": True}, help=t(f"heatmap.preset_{name}_help"),
            icon=":material/photo_library:",
            width="stretch",
        )  # fmt: skip
    sentence = controls.text_input(
        spec.SENTENCE, t("heatmap.sentence"), t("heatmap.sentence_help"),
        placeholder=t("heatmap.sentence_placeholder"),
        container=st.sidebar if controls.compact() else st,  # projector, phone: the chart first
    )  # fmt: skip
    tokens, n_words = data.tokens(sentence)
    seq_len, d_model, base = controls.shared_controls(seq_len=not tokens)
    learned = uploaded_embedding()
    if tokens:
        seq_len = len(tokens)
        st.sidebar.info(t("heatmap.sentence_mode", n=seq_len), icon=":material/short_text:")
        if n_words > seq_len:
            st.caption(t("heatmap.sentence_capped", total=n_words, cap=seq_len))
    words = {
        **figs.WORDS,
        **{k: t(f"heatmap.w_{k}") for k in figs.WORDS if k not in ("similarity", "curve_axis")},
    }
    height = controls.chart_height(460)

    if controls.compact():  # projector, phone: the layout above the chart, the framework aside
        left = middle = st.container()
        right = st.sidebar
    else:
        left, middle, right = st.columns([1.3, 1, 2.2])
    with left:
        layout = controls.choice(
            spec.LAYOUT, t("heatmap.layout"), t("heatmap.layout_help"),
            labels=[t(f"common.layout_{code}") for code in spec.LAYOUT.options],
            captions=[t("heatmap.layout_interleaved"), t("heatmap.layout_split")],
        )  # fmt: skip
    with middle:
        group = controls.toggle(spec.GROUP, t("heatmap.group"), t("heatmap.group_help"))
    with right:
        framework = controls.choice(
            spec.FRAMEWORK, t("heatmap.framework"), t("heatmap.framework_help"),
            labels=[t(f"heatmap.fw_name_{name}") for name in spec.FRAMEWORK.options],
        )  # fmt: skip
    try:  # posenc decides; only fairseq at d = 2 refuses (it divides by d/2 - 1)
        omega = framework_frequencies(framework, d_model, base)
    except ValueError:
        st.warning(t("heatmap.framework_unavailable", d_model=d_model))
        framework, omega = "paper", framework_frequencies("paper", d_model, base)
    order = data.column_order(d_model, layout, group)

    def table_tab() -> None:
        grid = data.table_grid(framework, seq_len, d_model, base, layout, group)
        figure = figs.table_figure(
            grid, words=words, omega=omega, layout=layout, order=order, tokens=tokens or None,
            height=height,
        )  # fmt: skip
        here = controls.beside([1, 1]) if learned is not None else [st.container()]
        controls.plot(figure, "hm_table", here[0], alt=t("heatmap.alt_table", L=seq_len, d=d_model))
        if learned is not None:
            learned_table, top = learned_grid(learned)
            learned_figure = figs.table_figure(learned_table, words=words, zmax=top, height=height)
            controls.plot(
                learned_figure, "hm_learned", here[1],
                alt=t("heatmap.alt_learned", rows=learned.shape[0], cols=learned.shape[1]),
            )  # fmt: skip
            here[1].caption(
                t("heatmap.learned_caption", rows=learned.shape[0], cols=learned.shape[1])
            )
        downsampled_notice(grid, seq_len, d_model)
        st.caption(t("heatmap.main_notice"))
        if layout == "split" or group:
            st.caption(t("heatmap.grouped_notice"))
        elif grid.col_step > 1:
            st.caption(t("heatmap.mixed_hint"))
        full = seq_len * d_model <= data.FULL_MAX
        whole = (framework, seq_len, d_model, base, layout)
        export.offer(
            "pe_table", figure, matrix=(lambda: data.table(*whole)) if full else None,
            shape=(seq_len, d_model), code=view.python_call(*whole),
        )  # fmt: skip
        if not full:
            code = view.python_call(*whole)
            st.caption(
                t("heatmap.export_capped", cap=data.FULL_MAX, n=seq_len * d_model, code=code)
            )
        if seq_len <= spec.TABLE_MAX and d_model <= spec.TABLE_MAX:
            names = [f"{p}: {tokens[p]}" if tokens else str(p) for p in range(seq_len)]
            frame = view.numeric_frame(
                data.table(framework, seq_len, d_model, base, layout), layout, names
            )
            number = st.column_config.NumberColumn(format="%.8f")
            st.dataframe(frame, column_config=dict.fromkeys(frame.columns, number))
            st.caption(t("heatmap.numbers"))
        with controls.notes() as notes:
            if notes.open:
                st.caption(t("heatmap.seed_notes"))

    def frameworks_tab() -> None:
        draw_frameworks(
            framework, (seq_len, d_model, base), layout, group,
            dict(words=words, omega=omega, order=order, tokens=tokens or None, height=height),
        )  # fmt: skip

    def embedding_tab() -> None:
        st.markdown(t("heatmap.emb_lead"))
        st.latex(r"x_p = \sqrt{d}\,E_p + PE_p")
        seed_box, scale_box = st.columns(3)[:2]
        seed = controls.slider(
            spec.SEED, t("heatmap.seed"), t("heatmap.seed_help"), container=seed_box
        )
        scaled = controls.toggle(
            spec.SCALE, t("heatmap.emb_scale"), t("heatmap.emb_scale_help"), container=scale_box
        )
        panels = data.embedding_panels(seq_len, d_model, base, layout, int(seed), scaled=scaled)
        titles = {key: t(f"heatmap.emb_panel_{key}") for key in panels}
        if scaled:  # the embedding is sqrt(d) E wherever it appears
            titles = {k: v if k == "pe" else f"√d·{v}" for k, v in titles.items()}
        emb_figure = figs.embedding_figure(
            [(titles[key], matrix) for key, matrix in panels.items()],
            words=words, height=controls.chart_height(380), stacked=controls.stacked(),
            panel_height=controls.chart_height(240),
        )  # fmt: skip
        controls.plot(emb_figure, "hm_embedding", alt=t("heatmap.alt_embedding", n=len(panels)))
        total = panels["sum"]
        export.offer(
            "embedding_plus_pe", emb_figure, matrix=total if total.size <= data.FULL_MAX else None
        )
        rows, cols = panels["emb"].shape
        if (rows, cols) != (seq_len, d_model):
            st.caption(t("heatmap.emb_capped", rows=rows, cols=cols, L=seq_len, d=d_model))
        if scaled:  # what to notice; unscaled, the caption below says it
            st.caption(t("heatmap.emb_short_notice", max_pos=rows - 1))
        else:
            st.caption(t("heatmap.emb_unscaled", size=f"{d_model**-0.5:.2g}"))
        with controls.expander(t("heatmap.concat"), name="hm_concat") as more:
            if more.open:
                st.latex(
                    r"W\begin{bmatrix} E_p \\ PE_p\end{bmatrix} = \begin{bmatrix} W_E & W_{PE}"
                    r"\end{bmatrix}\begin{bmatrix} E_p \\ PE_p\end{bmatrix}"
                    r" = W_E E_p + W_{PE}\,PE_p"
                )
                weights = dict(add=f"{d_model**2:,}", concat=f"{2 * d_model**2:,}")
                st.markdown(t("heatmap.concat_text", d=d_model, **weights))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("heatmap.emb_intro"))
                st.caption(t("heatmap.emb_notice", max_pos=rows - 1))  # the panels' last row
                st.markdown(t("heatmap.emb_scale_notes", root=f"{d_model**0.5:.3g}", d=d_model))

    def similarity_tab() -> None:
        st.markdown(t("heatmap.sim_lead"))
        st.latex(r"PE_m \cdot PE_n = \sum_{i=0}^{d/2-1} \cos\big(\omega_i (m-n)\big)")
        asked = controls.number(
            spec.SIM_ROW, t("heatmap.sim_row"), t("heatmap.sim_row_help"),
            container=st.columns(4)[0], format="%.0f",
        )  # fmt: skip
        reference = min(round(asked), seq_len - 1)
        if reference != asked:
            st.caption(
                t("heatmap.sim_row_clamped", asked=f"{asked:g}", last=seq_len - 1, used=reference)
            )
        similarity = data.similarity_grid(seq_len, d_model, base)
        sim_figure = figs.similarity_figure(
            similarity, words=words, reference=reference, height=height, pickable=True
        )
        here = controls.beside([1, 1]) if learned is not None else [st.container()]
        grab.plot(
            sim_figure, "hm_similarity", spec.SIM_ROW, where=here[0], high=seq_len - 1,
            alt=t("heatmap.alt_similarity", last=seq_len - 1, half=d_model // 2),
        )  # fmt: skip
        grab.hint(t("heatmap.sim_pick"), here[0])
        if learned is not None:
            learned_figure = figs.similarity_figure(
                learned_similarity(learned), words=words, height=height
            )
            controls.plot(
                learned_figure, "hm_learned_similarity", here[1],
                alt=t("heatmap.alt_learned_similarity"),
            )  # fmt: skip
            here[1].caption(
                t("heatmap.learned_sim_caption", rows=min(len(learned), SIMILARITY_ROWS))
            )
        downsampled_notice(similarity, seq_len, seq_len)
        st.caption(t("heatmap.sim_notice", half=d_model // 2))
        small = seq_len * seq_len <= data.FULL_MAX
        export.offer(
            "pe_similarity", sim_figure,
            matrix=(lambda: posenc.similarity_matrix(seq_len, d_model, base)) if small else None,
            shape=(seq_len, seq_len),
            code=f"posenc.similarity_matrix({seq_len}, {d_model}, {base!r})",
        )  # fmt: skip
        curve, stride = figs.similarity_curve(
            data.similarity_row(seq_len, d_model, base, reference), reference, words=words,
            height=controls.chart_height(320),
        )  # fmt: skip
        controls.plot(curve, "hm_curve", alt=t("heatmap.alt_curve", r=reference, half=d_model // 2))
        export.offer("pe_similarity_row", curve)
        if stride > 1:
            st.caption(
                t("heatmap.sim_subsampled", step=stride, n=len(curve.data[0].x), total=seq_len)
            )
        st.caption(t("heatmap.sim_curve_notice"))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("heatmap.sim_intro"))
                st.latex(
                    r"PE_m \cdot PE_n = \sum_{i=0}^{d/2-1} \big[\sin\omega_i m\,\sin\omega_i n"
                    r" + \cos\omega_i m\,\cos\omega_i n\big]"
                    r" = \sum_{i=0}^{d/2-1} \cos\big(\omega_i (m-n)\big)"
                )

    SECTIONS = {
        "table": table_tab,
        "frameworks": frameworks_tab,
        "embedding": embedding_tab,
        "similarity": similarity_tab,
    }

    controls.run_open_tab(spec.TAB, "heatmap", SECTIONS)
