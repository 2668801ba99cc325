"""Home: why a Transformer needs positions, what a good encoding is, the formula."""

import streamlit as st

from ui.plain import table_figure
from ui.plain.story_outline import STEPS
from ui.shared import controls, export, figure_cache, menu
from ui.shared.i18n import t
from ui.shared.notices import downsampled_notice
from ui.shared.pe_table import table_grid

figs = figure_cache.builders(table_figure)  # built once for all sessions (#23)

# The five source articles, named once: the pages call them by these short names.
SOURCES = ("overview", "binary", "rope", "evolution", "gentle")


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("home")

    st.title(t("home.title"))
    st.markdown(t("home.intro"))
    # The guided story, first thing under the intro.
    st.page_link(
        "pages/0_Start_here.py",
        label=t("home.story_link", n=len(STEPS)),
        icon=":material/school:",
        query_params=menu.link_params(),
    )

    def why() -> None:
        """The sources, why positions are needed and the two naive codes (folded)."""
        sources = controls.popover(t("home.sources"), name="sources", icon=":material/menu_book:")
        if sources.open:
            with sources:
                st.markdown(t("home.sources_intro"))
                st.markdown("\n".join(f"- {t(f'home.source_{name}')}" for name in SOURCES))
        folded = controls.expander(t("home.why_header"), name="why", icon=":material/help:")
        if folded.open:
            with folded:
                st.markdown(t("home.why"))
                st.subheader(t("home.naive_header"))
                left, right = controls.beside([1, 1])
                left.latex(r"PE_p = \frac{p}{L - 1}")
                left.markdown(t("home.naive_normalised"))
                right.latex(r"PE_p = p")
                right.markdown(t("home.naive_raw"))

    # The story in one screen: why (collapsed), the table, what a good code needs. On a
    # projector or a phone the table comes first, the sources and the "why" under it.
    if not controls.compact():
        why()

    st.header(t("home.formula_header"))
    st.latex(
        r"PE_{(p,\,2i)} = \sin(\omega_i\, p),\quad "
        r"PE_{(p,\,2i+1)} = \cos(\omega_i\, p),\quad "
        r"\omega_i = b^{-2i/d}"
    )
    # On a projector or a phone the table's size is set here, above it (the sidebar is closed).
    seq_len, d_model, base = controls.shared_controls(inline=True)
    grid = table_grid("paper", seq_len, d_model, base, "interleaved", False)  # the heatmap's
    figure = figs.home_heatmap(
        grid, t("common.dimension"), t("common.position"), z_title=t("common.value"),
        height=controls.chart_height(380),
    )  # fmt: skip
    controls.plot(
        figure, "home_heatmap", alt=t("home.alt_heatmap", seq_len=seq_len, d_model=d_model)
    )
    export.offer("pe_table", figure)
    downsampled_notice(grid, seq_len, d_model)
    st.caption(t("home.heatmap_notice", seq_len=seq_len, d_model=d_model, base=f"{base:g}"))
    if controls.compact():
        why()

    st.header(t("home.criteria_header"))
    links = menu.link_params()
    for criterion in ("unique", "consistent", "extrapolates", "bounded"):
        # One block a row (columns cost three, each sent on every rerun: issue #32); on
        # a phone a long text pushes the link under it, as stacked columns did.
        row = st.container(
            horizontal=True, wrap=controls.phone(), vertical_alignment="center", gap="medium"
        )
        row.markdown(t(f"home.criterion_{criterion}"), width="stretch")
        target = menu.page_for(criterion)
        if target is not None:
            row.page_link(
                target.path,
                label=t(target.label_key),
                icon=target.icon,
                query_params=links,
                width="content",
            )

    notation = controls.expander(
        t("home.notation_header"), name="notation", icon=":material/functions:"
    )
    if not notation.open:
        return
    with notation:
        st.markdown(t("home.notation"))
        st.latex(
            r"\omega_i = b^{-2i/d},\qquad \lambda_i = 2\pi\, b^{2i/d},\qquad \theta_j = \omega_j"
        )
        st.latex(
            r"x_p = E_p + PE_p,\qquad PE_{p+k} = PE_p\,T(k),\qquad "
            r"R(m\theta) = T(m):\quad q_m = R(m\theta)\,q,\ \ k_n = R(n\theta)\,k,"
            r"\quad q_m^\top = q^\top T(-m)"
        )
        st.markdown(t("home.notation_rope"))
