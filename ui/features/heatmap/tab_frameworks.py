"""The Heatmap page's "Frameworks" tab: how far each implementation's table is from the
paper's (``posenc.frameworks``), a button per implementation that draws its table in
its own layout, and the difference from the paper drawn cell by cell."""

from __future__ import annotations

import streamlit as st

from posenc.frameworks import FRAMEWORKS, NATIVE_LAYOUT
from ui.features.heatmap import data, figures, view
from ui.features.heatmap.data_frameworks import LISTINGS
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)


def tab(framework: str, model: tuple[int, int, float], layout: str, group: bool, draw: dict):
    """``model`` = (seq_len, d_model, base) from the sidebar; ``draw`` = the arguments the
    difference shares with the Table tab's figure (``words``, ``omega``, ``order``,
    ``tokens``, ``height``)."""
    seq_len, d_model, base = model
    st.markdown(t("heatmap.fw_lead"))
    differences = data.framework_differences(seq_len, d_model, base)
    st.markdown(view.framework_table_markdown(differences))
    st.caption(t("heatmap.fw_presets"))
    _buttons(differences)
    name = t(f"heatmap.fw_name_{framework}")
    st.markdown(t("heatmap.fw_chosen", name=name, what=t(f"heatmap.fw_what_{framework}")))
    compared = framework
    if framework == "paper":  # the reference: show the largest difference at once
        compared = data.most_different(differences)
    diff_name = t(f"heatmap.fw_name_{compared}") if compared else name
    if compared is not None and compared != framework:
        st.caption(t("heatmap.fw_paper_compares", name=diff_name))
    if compared is None:
        st.info(t("heatmap.fw_is_paper"), icon=":material/check:")
    elif not differences.get(compared):
        st.info(t("heatmap.fw_identical", name=name), icon=":material/check:")
    else:
        diff_grid, peak = data.difference_grid(compared, seq_len, d_model, base, layout, group)
        diff_figure = figs.table_figure(
            diff_grid, layout=layout, zmax=peak.worst, value_name=t("heatmap.w_difference"),
            reduce="max_abs", **draw,
        )  # fmt: skip
        controls.plot(diff_figure, "hm_difference", alt=t("heatmap.alt_difference", name=diff_name))
        export.offer(f"pe_{compared}_minus_paper", diff_figure)
        if diff_grid.downsampled:
            st.caption(
                t("heatmap.fw_diff_blocks", rows=diff_grid.row_step, cols=diff_grid.col_step)
            )
        last = d_model // 2 - 1
        st.caption(t("heatmap.fw_diff_notice", name=diff_name, last=last, **peak._asdict()))
    with controls.expander(t("heatmap.fw_code", name=name), name="hm_fw_code") as code:
        if code.open:
            for source, listing in LISTINGS[framework]:
                st.caption(t(f"heatmap.{source}"))
                st.code(listing, language="python")
            st.caption(t("heatmap.code_base", base=f"{base:g}"))
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t("heatmap.fw_intro"))


def _buttons(differences: dict) -> None:
    """One button per implementation, three in a row (six in one row cut their labels)."""
    rows = range(0, len(FRAMEWORKS), 3)
    columns = [column for _ in rows for column in st.columns(3)][: len(FRAMEWORKS)]
    for column, name in zip(columns, FRAMEWORKS, strict=True):
        label = t(f"heatmap.fw_name_{name}")
        native = NATIVE_LAYOUT[name]
        column.button(
            label, key=f"hm_fw_{name}", on_click=view.apply_preset,
            args=({"hm_framework": name, "hm_layout": native},),
            help=t("heatmap.fw_preset_help", name=label, layout=t(f"common.layout_{native}")),
            disabled=differences[name] is None, width="stretch",
        )  # fmt: skip
