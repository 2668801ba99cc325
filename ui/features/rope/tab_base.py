"""The RoPE page's "Base for a context" tab: Men et al.'s lower bound b*(L) of the base
(``posenc.rope_base_lower_bound``), B(m) of a chosen base with its first negative offset,
and the real models' bases against the bound for their context."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.features.rope import data, figures
from ui.features.rope import specs as sp
from ui.features.rope.data_models import PRESETS
from ui.plain.params import base_limits
from ui.plain.tables import markdown_table
from ui.shared import controls, figure_cache
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

FORMULA = (
    r"B(m) = \sum_{i=0}^{d/2-1} \cos\big(m\, b^{-2i/d}\big) \ge 0 \ \ \forall m \le L,"
    r"\qquad b^*(L) = \inf\{b \ge 1 : B(m) \ge 0\ \forall m \le L\}"
)


def number(value: float) -> str:
    """A base or an offset as shown: whole, with thousands separators."""
    return f"{value:,.0f}"


def verdict(base: float, context: int, found: dict) -> str:
    """The sentence on the chosen base: below b*(L) (then it fails), above and failing,
    or safe for the whole context."""
    shown = dict(base=number(base), bound=number(found["bound"]), length=number(context))
    if found["failure"] is None:
        return t("rope.bound_safe", **shown)
    key = "rope.bound_below" if base < found["bound"] else "rope.bound_above"
    return t(key, m=number(found["failure"]), **shown)


def preset_models() -> tuple[tuple[str, int, float, int], ...]:
    """The presets whose rotated head dim has a stored bound at their context."""
    models = []
    for model in PRESETS.values():
        rotated = int(model.head_dim * model.partial_rotary_factor)
        if data.stored_bound(rotated, model.context):
            models.append((model.name, rotated, model.base, model.context))
    return tuple(models)


def preset_table() -> str:
    columns = [t(f"rope.bound_col_{key}") for key in ("model", "context", "base", "bound", "m")]
    rows = [
        (r["name"], number(r["context"]), number(r["base"]), number(r["bound"]),
         t("rope.bound_none") if r["failure"] is None else number(r["failure"]))
        for r in data.preset_bounds(preset_models())
    ]  # fmt: skip
    return markdown_table(pd.DataFrame(rows, columns=columns), left=[columns[0]])


def tab() -> None:
    st.caption(t("rope.bound_own"))  # the sidebar's d and b do not apply here
    c1, c2, c3 = st.columns(3)
    context = controls.slider(
        sp.BOUND_CONTEXT, t("rope.bound_len"), t("rope.bound_len_help"), container=c1
    )
    code = controls.choice(
        sp.BOUND_HEAD_DIM, t("rope.bound_dim"), t("rope.bound_dim_help"), container=c2,
        labels=[code.removeprefix("d") for code in sp.BOUND_HEAD_DIM.options],
    )  # fmt: skip
    context, head_dim = int(context), int(code.removeprefix("d"))
    base_help = t("rope.bound_base_help", **base_limits(sp.BOUND_BASE))
    base = float(
        controls.number(sp.BOUND_BASE, t("rope.bound_base"), base_help, container=c3, format="%g")
    )
    st.latex(FORMULA)
    found = data.base_check(base, context, head_dim)
    st.metric(t("rope.bound_metric"), number(found["bound"]), help=t("rope.bound_metric_help"))
    st.markdown(verdict(base, context, found))
    failure = None
    if found["failure"] is not None:
        failure = (found["failure"], found["failure_sum"])
    fig = figs.base_sums_figure(
        found["offsets"], found["sums"], failure, x_title=t("rope.bound_offset"),
        y_title="B(m)", failure_name=t("rope.bound_first"), height=controls.chart_height(380),
    )  # fmt: skip
    controls.plot(fig, "rope_bound_chart", alt=t("rope.alt_bound", base=f"{base:,g}"))
    if found["block"] > 1:
        st.caption(
            t("rope.bound_envelope", count=number(found["count"]), block=number(found["block"]))
        )
    st.caption(t("rope.bound_notice"))
    st.markdown(preset_table())
    st.caption(t("rope.bound_table_note"))
