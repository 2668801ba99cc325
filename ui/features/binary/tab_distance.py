"""The Binary vs sinusoid page's "Distance matrix" tab: ||e(m) - e(n)|| of one scheme; a
click near a diagonal n - m = k sets k and opens the step distances."""

from __future__ import annotations

import numpy as np
import streamlit as st

from posenc import criteria
from ui.features.binary import figures
from ui.features.binary.data import distance_grid, first_distance_dip
from ui.features.binary.specs import SCHEME, TAB, K
from ui.shared import controls, export, figure_cache, grab
from ui.shared.i18n import t
from ui.shared.notices import shown_notice

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

# Positions drawn, at most: a cap keeps a rerun at the largest settings within a few
# times the default one (issue #7).
MAX_DISTANCE = 2048


def show_steps() -> None:
    """After a click on a diagonal n - m = k of the distance matrix: its steps, at k."""
    controls.open_tab(TAB, "binary", "steps")


def tab(seq_len: int, d_model: int, base: float, names: dict[str, str]) -> None:
    """The distance matrix of one scheme (``names``: the schemes' names on screen)."""
    position = t("common.position")
    st.subheader(t("binary.distance_header"))
    st.markdown(t("binary.distance_intro"))
    scheme = controls.choice(
        SCHEME,
        t("binary.scheme"),
        t("binary.scheme_help"),
        labels=[names[code] for code in SCHEME.options],
    )
    shown = min(seq_len, MAX_DISTANCE)
    grid = distance_grid(scheme, seq_len, d_model, base, shown)
    hover = (
        f"{position} m %{{customdata[1]}}<br>{position} n %{{customdata[2]}}<br>"
        f"%{{customdata[3]:.4g}}<br>{t('binary.pick_k')} = %{{customdata[0]}}<extra></extra>"
    )
    fig = figs.distance_figure(
        grid, x_title=f"{position} n", y_title=f"{position} m", value_title="‖e(m) − e(n)‖",
        height=controls.chart_height(520), pick_offsets=K.maximum, pick_hover=hover,
    )  # fmt: skip
    alt = t("binary.alt_distance", scheme=names[scheme], n=shown)
    grab.plot(fig, "bin_distance", K, then=show_steps, alt=alt)
    grab.hint(t("binary.distance_pick"))
    shown_notice(grid, shown, seq_len, shown, "binary.distance_capped")
    dip = first_distance_dip(d_model, base, shown)
    if dip is None:
        st.caption(t("binary.distance_notice_rising", shown=shown))
    else:
        st.caption(t("binary.distance_notice", dip=dip, d=d_model, base=f"{base:g}"))
    blocks = lambda: criteria.distance_blocks(scheme, shown, d_model, base, total_length=seq_len)  # noqa: E731
    export.offer(
        "binary_distance", fig, matrix=lambda: np.vstack([b for _, b in blocks()]),
        shape=(shown, shown),
    )  # fmt: skip
