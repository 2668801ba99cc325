"""The RoPE page's "Real models" tab: a released model's RoPE settings (or a pasted
``config.json``), and what they mean for each rotary pair: wavelength, turns inside the
training context, the first pair under one turn, and what the model's scaling does.
Numbers from ``ui.features.rope.data_models`` (``posenc.rope_frequencies``)."""

from __future__ import annotations

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
    if name in ("rope_type", "type"):
        return method_label(mp.SCALING_TYPES.get(value))
    return "null" if value is None else f"{value}"


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
    controls.plot(fig, "rope_models_chart")
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
    with controls.notes():
        st.markdown(t("rope.models_notes"))
        st.markdown(t("rope.models_caveats"))
        st.markdown(t("rope.models_sources"))
        st.markdown(source_lines())
    export.offer("rope_models", fig, matrix=mp.table(view))
