"""The RoPE page's "Real models" tab: a released model's RoPE settings (or a pasted
``config.json``), and what they mean for each rotary pair: wavelength, turns inside the
training context, the first pair under one turn, and what the model's scaling does.
Numbers from ``ui.features.rope.data_models`` (``posenc.rope_frequencies`` for the
pretrained speeds, ``posenc.rope_from_config`` for the model's own)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import streamlit as st

from ui.features.rope import data_models as mp
from ui.features.rope import figures_models
from ui.features.rope import specs as sp
from ui.plain.safe_text import markdown_code
from ui.plain.tables import markdown_table
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import say, t
from ui.shared.menu import ROOT

# The multi-axis RoPE page (images and video); linked from an M-RoPE model when it exists.
MROPE_PAGE = "pages/7_Multi_axis_RoPE.py"

figs = figure_cache.builders(figures_models)  # built once for all sessions (#23)

FORMULA = (
    r"\theta_j = b^{-2j/r},\quad \lambda_j = \frac{2\pi}{\theta_j},\quad t_j = "
    r"\frac{L_0}{\lambda_j},\quad j_c = \min\{\,j : \lambda_j > L_0\,\}"
)


def method_label(scaling: str | None) -> str:
    if scaling == "proportional":
        return t("rope.models_prope")
    return t(f"rope.method_{scaling or 'none'}")


def settings_tex(m: mp.RopeModel) -> str:
    """The model's settings as one formula line (shared by both languages)."""
    parts = [rf"d = {m.head_dim}", rf"b = {m.base:,.0f}".replace(",", r"{,}")]
    parts.append(rf"r = {m.rotated}")
    if m.scaling == "proportional":
        parts.append(rf"p = {m.partial_rotary_factor:g}")
    parts.append(rf"L_0 = {m.original_context:,}".replace(",", r"{,}"))
    if m.scaling is not None:
        parts += [rf"s = {m.factor:g}", rf"L = {m.context:,}".replace(",", r"{,}")]
    return r",\quad ".join(parts)


def counts(view: dict, m: mp.RopeModel) -> dict[str, int]:
    """Pairs whose speed the scaling keeps, divides by s, sets to 0, or sets otherwise."""
    ratio = view["ratio"]
    kept = np.isclose(ratio, 1.0, rtol=1e-9)
    divided = np.isclose(ratio, 1.0 / m.factor, rtol=1e-9) & ~kept
    zero = view["scaled"] == 0
    between = ~(kept | divided | zero)
    return dict(kept=int(kept.sum()), divided=int(divided.sum()), zero=int(zero.sum()),
                between=int(between.sum()))  # fmt: skip


def positions(x: float) -> str:
    """A wavelength in positions as a learner reads it: 6.28, 54,410 (no e-notation)."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def summary(view: dict, m: mp.RopeModel) -> str:
    """Rows as pretrained (in L0) and, for a scaled model, after scaling (in L): the
    longest wavelength and the pairs under one turn, as one Markdown table."""
    rows = []
    cases = [("pretrained", view["wavelength"], view["turns"], view["critical"],
              m.original_context)]  # fmt: skip
    if m.scaling is not None:
        cases.append(("scaled", view["wavelength_scaled"], view["turns_scaled"],
                      view["critical_scaled"], m.context))  # fmt: skip
    for key, wave, turns, first, length in cases:
        rows.append([
            t(f"rope.models_row_{key}"), f"{length:,}",
            positions(wave.max()) if np.isfinite(wave.max()) else "∞",
            int((turns < 1).sum()), t("rope.models_none") if first is None else first,
        ])  # fmt: skip
    columns = [t(f"rope.models_summary_{c}") for c in
               ("speeds", "context", "long", "under", "first")]  # fmt: skip
    return markdown_table(pd.DataFrame(rows, columns=columns), left=[columns[0]])


def _value(name: str, value) -> str:
    """A cited config value as shown in the notes (a scaling type by its method's name)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"`{k}` {_value(k, v)}" for k, v in value.items()) + "}"
    if isinstance(value, list) and len(value) > 4:  # LongRoPE's factors: the first ones
        shown = ", ".join(f"{v:.4g}" for v in value[:3])
        return t("rope.models_list", first=shown, count=len(value))
    if name in ("rope_type", "type"):
        return method_label(mp.SCALING_TYPES.get(value))
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return f"{value}"


def source_lines() -> str:
    """Each preset with the addresses of its values and the fields read there (Markdown)."""
    lines = []
    for preset in mp.PRESETS.values():
        cited = []
        for address, fields in preset.sources:
            name = address.rsplit("/", 1)[-1]
            label = f"`{name}`" if name.endswith((".json", ".py")) else t("rope.models_card")
            values = ", ".join(f"`{k}` {_value(k, v)}" for k, v in fields.items())
            cited.append(f"[{label}]({address}): {values}")
        lines.append(f"- **{preset.name}**: " + "; ".join(cited))
    return "\n".join(lines)


def read_model(code: str) -> mp.RopeModel | None:
    """The chosen preset, or the pasted config (None, with a notice, if it cannot be read)."""
    if code != "pasted":
        return mp.PRESETS[code]
    help_text = t("rope.config_help", max_chars=f"{sp.CONFIG.max_chars:,}")
    pasted = controls.text_input(
        sp.CONFIG, t("rope.config"), help_text, placeholder='{"hidden_size": 4096, …}'
    )
    try:
        model = mp.parse_config(pasted)
    except ValueError as error:
        st.info(say(error), icon=":material/info:")
        return None
    if model.assumed:
        fields = ", ".join(markdown_code(f) for f in model.assumed)
        st.caption(t("rope.models_assumed", fields=fields))
    return model


def tab() -> None:
    """The tab; its controls are its own (the sidebar's model does not apply)."""
    labels = [t(f"rope.model_{code}") for code in sp.MODEL.options]
    code = controls.choice(sp.MODEL, t("rope.model"), t("rope.model_help"), labels=labels)
    model = read_model(code)
    if model is None:
        return
    st.caption(t("rope.models_own"))
    st.latex(FORMULA)
    st.latex(settings_tex(model))
    view = mp.pair_view(model)
    pairs, L0, L = view["theta"].size, model.original_context, model.context
    waves = {"pretrained": view["wavelength"]}
    contexts = {t("rope.models_l0", orig=f"{L0:,}"): L0}
    if model.scaling is not None:
        waves["scaled"] = view["wavelength_scaled"]
        contexts[t("rope.models_l", context=f"{L:,}")] = L
    names = {key: t(f"rope.models_{key}") for key in waves}
    j = view["critical"]
    fig = figs.wavelength_figure(
        waves, names=names, contexts=contexts, critical=j,
        critical_label=t("rope.models_critical", j=j), x_title=t("rope.pair_index"),
        y_title=t("rope.models_wavelength"), height=controls.chart_height(440),
    )  # fmt: skip
    controls.plot(fig, "rope_models_chart", alt=t("rope.alt_models", pairs=pairs))
    if j is None:
        st.caption(t("rope.models_notice_all", pairs=pairs, orig=f"{L0:,}"))
    else:
        count = pairs - j
        st.caption(t("rope.models_notice", j=j, count=count, pairs=pairs, orig=f"{L0:,}"))
    n = counts(view, model)
    if model.scaling is None:
        st.caption(t("rope.models_scaling_none"))
    elif model.scaling == "proportional":
        st.caption(t("rope.models_scaling_prope", factor=f"{model.factor:g}", **n))
    elif model.scaling == "longrope":  # a factor per pair: s only sets the attention factor
        factors = view["wavelength_scaled"] / view["wavelength"]
        st.caption(
            t("rope.models_scaling_longrope", low=f"{factors.min():.3g}",
              high=f"{factors.max():.3g}", factor=f"{model.factor:g}", context=f"{L:,}",
              under=int((view["turns_scaled"] < 1).sum()))
        )  # fmt: skip
    else:
        under = int((view["turns_scaled"] < 1).sum())
        st.caption(
            t("rope.models_scaling", method=method_label(model.scaling), factor=f"{model.factor:g}",
              context=f"{L:,}", under=under, **n)
        )  # fmt: skip
    if model.rotated < model.head_dim:
        rest = model.head_dim - model.rotated
        st.caption(t("rope.models_partial", r=model.rotated, d=model.head_dim, rest=rest))
    st.markdown(summary(view, model))
    attention_caption(view, model)
    if model.mrope_section:
        mrope_notice(model)
    if model.scaling == "longrope":
        longrope_section(model)
    elif model.scaling == "ntk":
        ntk_section(model)
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t("rope.models_notes"))
            st.markdown(t("rope.models_caveats"))
            st.markdown(t("rope.models_sources"))
            st.markdown(source_lines())
    export.offer("rope_models", fig, matrix=mp.table(view))


def attention_caption(view: dict, m: mp.RopeModel) -> None:
    """The attention factor a (transformers multiplies cos and sin by it)."""
    a = view["attention"]
    if m.scaling is None and a == 1.0:
        return
    st.caption(t("rope.models_attention", a=f"{a:.5g}", a2=f"{a * a:.5g}"))
    config = m.config.get("rope_scaling") or {}
    if m.scaling == "yarn" and config.get("mscale") and config.get("mscale_all_dim"):
        st.caption(t("rope.models_mscale"))
    if m.scaling == "yarn" and config.get("truncate") is False:
        st.caption(t("rope.models_truncate"))


def mrope_notice(m: mp.RopeModel) -> None:
    """An M-RoPE model: its sections named, and the multi-axis page when it exists."""
    sections = t("rope.models_sections_sep").join(str(n) for n in m.mrope_section)
    layout = t(
        "rope.models_mrope_interleaved" if m.mrope_interleaved else "rope.models_mrope_chunked"
    )
    st.info(
        t("rope.models_mrope", pairs=m.rotated // 2, sections=sections, layout=layout),
        icon=":material/view_in_ar:",
    )
    if (ROOT / MROPE_PAGE).exists():
        st.page_link(MROPE_PAGE, label=t("rope.models_mrope_link"), icon=":material/grid_on:")


def current_length(m: mp.RopeModel) -> int:
    """The current length L (a number box): the speeds of dynamic NTK and LongRoPE
    depend on it."""
    help_text = t("rope.models_len_help", orig=f"{m.original_context:,}")
    box = st.columns([1, 2])[0] if not controls.stacked() else st
    return controls.number(sp.MODEL_LEN, t("rope.models_len"), help_text, container=box)


def longrope_section(m: mp.RopeModel) -> None:
    """LongRoPE: the short and long factor per pair, the switch at L0, the attention factor."""
    st.subheader(t("rope.models_longrope"))
    length = current_length(m)
    short, long, attention = mp.longrope_factors(m)
    active = "long" if length > m.original_context else "short"
    names = {key: t(f"rope.models_factor_{key}") for key in ("short", "long")}
    fig = figs.factor_figure(
        {"short": short, "long": long}, names=names, active=active,
        x_title=t("rope.pair_index"), y_title=t("rope.models_factor"),
        height=controls.chart_height(360),
    )  # fmt: skip
    controls.plot(fig, "rope_models_factors", alt=t("rope.alt_factors", active=names[active]))
    L0 = f"{m.original_context:,}"
    changed = int(np.sum(short != long))
    st.caption(t(f"rope.models_longrope_{active}", length=f"{length:,}", orig=L0))
    st.caption(
        t("rope.models_longrope_switch", orig=L0, changed=changed, pairs=short.size,
          a=f"{attention:.5g}")
    )  # fmt: skip


def ntk_section(m: mp.RopeModel) -> None:
    """Dynamic NTK: the base and the slowest pair's wavelength as the length L grows."""
    st.subheader(t("rope.models_ntk"))
    length = current_length(m)
    growth = mp.ntk_growth(m, length)
    names = {"base": t("rope.models_ntk_base"), "speed": t("rope.models_ntk_slowest")}
    marks = {t("rope.models_l0", orig=f"{m.original_context:,}"): m.original_context,
             t("rope.models_ntk_now", length=f"{length:,}"): length}  # fmt: skip
    fig = figs.growth_figure(
        growth["lengths"], growth["base"], growth["speed"], marks=marks, names=names,
        x_title=t("rope.models_len"), height=controls.chart_height(380),
    )  # fmt: skip
    controls.plot(fig, "rope_models_ntk", alt=t("rope.alt_ntk", length=f"{length:,}"))
    at = int(np.flatnonzero(growth["lengths"] == length)[0])
    st.caption(
        t("rope.models_ntk_caption", length=f"{length:,}", orig=f"{m.original_context:,}",
          base=f"{growth['base'][at]:,.0f}", b=f"{m.base:,.0f}",
          wave=positions(growth["slowest"][at]))
    )  # fmt: skip
