"""Multi-axis RoPE (M-RoPE) of vision-language models: three position rows for text and
images, the pairs each axis turns, and the scores over a picture four ways."""

import math

import numpy as np
import streamlit as st

from ui.features.mrope import data, figures
from ui.features.mrope import specs as sp
from ui.plain.params import base_limits
from ui.shared import controls, figure_cache, grab
from ui.shared.i18n import t

figs = figure_cache.builders(figures)  # built once for all sessions (#23)

FORMULAS = {  # shared by both languages
    # A text token at p + i; an image's token (frame k, row y, column x); the next free p.
    "positions": r"P_{p+i} = (p+i,\ p+i,\ p+i),\qquad P_{k,y,x} = (p + k,\ p + y,\ p + x),"
    r"\qquad p' = p + \max(h', w')",
    "pairs": r"\phi_j(n) = P_{a(j)}(n)\,\theta_j,\qquad \theta_j = b^{-2j/d},\qquad"
    r" a(j) \in \{t,\ h,\ w\}",
    "chunked": r"a(j) = \begin{cases} t & j < s_t\\ h & s_t \le j < s_t + s_h\\"
    r" w & s_t + s_h \le j \end{cases}",
    "interleaved": r"a(j) = \begin{cases} h & j \equiv 1 \ (\mathrm{mod}\ 3),\ j < 3 s_h\\"
    r" w & j \equiv 2 \ (\mathrm{mod}\ 3),\ j < 3 s_w\\"
    r" t & j \equiv 0 \ (\mathrm{mod}\ 3)\ \lor\ j \ge 3 s_h = 3 s_w"
    r" \end{cases}",
    "picture": r"S_{mn} = \frac{\langle R(P_m)\,q,\ R(P_n)\,k\rangle}{\sqrt d}",
    "picture_positions": r"P^{\mathrm{1D}}_n = y_n w' + x_n,\ \ "
    r"P^{\mathrm{M}}_n = (t_n, y_n, x_n),\ \ P^{\mathrm{2D}}_n = (y_n, x_n)",
}


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("mrope", sp.SPECS)
    (bar := st.sidebar).subheader(t("mrope.sidebar"))
    frames = controls.slider(sp.FRAMES, t("mrope.frames"), t("mrope.frames_help"), container=bar)
    height = controls.slider(sp.HEIGHT, t("mrope.height"), t("mrope.height_help"), container=bar)
    width = controls.slider(sp.WIDTH, t("mrope.width"), t("mrope.width_help"), container=bar)
    base_help = t("mrope.base_help", **base_limits(sp.BASE))
    base = float(controls.number(sp.BASE, t("mrope.base"), base_help, container=bar, format="%g"))
    frames, rows, cols = int(frames), int(height) // data.MERGE, int(width) // data.MERGE
    axes = [t(f"mrope.axis_{name}") for name in data.AXES]

    st.title(t("mrope.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("mrope.lead"))

    def positions_tab() -> None:
        left, right = st.columns(2)
        before = controls.slider(
            sp.BEFORE, t("mrope.before"), t("mrope.before_help"), container=left
        )
        after = controls.slider(sp.AFTER, t("mrope.after"), t("mrope.after_help"), container=right)
        st.latex(FORMULAS["positions"])
        pos = data.positions(int(before), frames, int(height), int(width), int(after))
        n = pos.ids.shape[1]
        step = data.line_step(n)
        index = np.arange(0, n, step)
        image = np.arange(pos.image_start, pos.after_start)
        late = image[pos.ids[0, image] >= pos.resume]
        late = late[:: data.line_step(late.size)]
        fig = figs.position_rows(
            index, pos.ids[:, index], names=axes, x_title=t("mrope.token"),
            y_title=t("mrope.position"), resume_index=pos.after_start,
            resume_label=t("mrope.resume_mark", p=pos.resume), overlap_index=late,
            overlap_ids=pos.ids[0, late], overlap_label=t("mrope.overlap_mark", p=pos.resume),
            resume=pos.resume, height=controls.chart_height(420),
        )  # fmt: skip
        controls.plot(fig, "mrope_positions_chart", alt=t("mrope.alt_positions", p=pos.resume))
        if step > 1:
            st.caption(t("mrope.positions_sampled", step=step, n=n))
        st.caption(
            t("mrope.positions_notice", resume=pos.resume, start=pos.start, rows=rows,
              cols=cols, tokens=pos.after_start - pos.image_start)
        )  # fmt: skip
        if pos.overlap:
            st.info(
                t("mrope.overlap_notice", t=frames, side=max(rows, cols), last=pos.last_time,
                  resume=pos.resume, overlap=pos.overlap)
            )  # fmt: skip
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("mrope.positions_notes"))

    def pairs_tab() -> None:
        st.latex(FORMULAS["pairs"])
        lengths = data.wavelengths(base)
        words = dict(names=axes, x_title=t("mrope.pair"), y_title=t("mrope.wavelength"))
        found = {}
        for layout in data.SECTIONS:
            st.latex(FORMULAS[layout])
            axis = data.axis_of_pairs(layout)
            found[layout] = axis
            fig = figs.pair_axes(
                lengths, axis, title=t(f"mrope.layout_{layout}"), **words,
                height=controls.chart_height(300),
            )  # fmt: skip
            alt = t("mrope.alt_pairs", layout=t(f"mrope.layout_{layout}"))
            controls.plot(fig, f"mrope_pairs_{layout}_chart", alt=alt)
            st.caption(pairs_notice(layout, found, lengths, cols))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("mrope.pairs_notes"))

    def picture_tab() -> None:
        n = rows * cols
        cells = st.columns(3)
        query = controls.slider(
            sp.QUERY, t("mrope.query"), t("mrope.query_help"), container=cells[0], maximum=n - 1
        )
        kind = controls.choice(
            sp.CONTENT, t("mrope.content"), t("mrope.content_help"), container=cells[1],
            labels=[t(f"mrope.content_{code}") for code in sp.CONTENT.options],
        )  # fmt: skip
        seed = controls.slider(sp.SEED, t("mrope.seed"), t("mrope.seed_help"), container=cells[2])
        st.latex(FORMULAS["picture"])
        st.latex(FORMULAS["picture_positions"])
        found = data.score_maps(rows, cols, base, int(query), kind, int(seed))
        stacked = controls.stacked()
        flat = data.flat_spans(found.maps)
        notes = [t("mrope.flat_note", span=f"{flat[m]:.2g}") if m in flat else None
                 for m in data.METHODS]  # fmt: skip
        fig = figs.score_maps(
            [found.maps[m] for m in data.METHODS],
            [t(f"mrope.method_{m}") for m in data.METHODS],
            query=found.query, x_title=t("mrope.column"), y_title=t("mrope.row"),
            query_label=t("mrope.query_star"), hover=t("mrope.hover"), stacked=stacked,
            panel_width=controls.chart_height(250 if stacked else 175), notes=notes,
        )  # fmt: skip
        alt = t("mrope.alt_picture", n=len(data.METHODS), rows=rows, cols=cols)
        grab.plot(fig, "mrope_picture_chart", sp.QUERY, high=n - 1, alt=alt)
        grab.hint(t("mrope.pick"))
        row, col = found.query
        st.caption(t("mrope.query_at", row=row, col=col, rows=rows, cols=cols))
        spans = {m: data.spreads(found.maps[m], found.query)[0] for m in data.METHODS}
        st.caption(
            t("mrope.picture_notice", chunked=f"{spans['chunked']:.2g}",
              interleaved=f"{spans['interleaved']:.2g}", cols=cols)
        )  # fmt: skip
        st.caption(t(f"mrope.content_caption_{kind}"))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("mrope.picture_notes"))

    SECTIONS = {"positions": positions_tab, "pairs": pairs_tab, "picture": picture_tab}
    controls.run_open_tab(sp.TAB, "mrope", SECTIONS)


def pairs_notice(layout: str, found: dict, lengths: np.ndarray, cols: int) -> str:
    """The line under a layout's chart, its numbers read from the pairs each axis got."""
    chunked = found["chunked"]
    time, wide = np.flatnonzero(chunked == 0), np.flatnonzero(chunked == 2)
    if layout == "chunked":
        turn = (cols - 1) * 2 * math.pi / lengths[wide[0]]  # the fastest width pair's angle
        return t(
            "mrope.pairs_notice_chunked", t0=time[0], t1=time[-1], w0=wide[0], w1=wide[-1],
            fast=number(lengths[time[0]]), slow=number(lengths[time[-1]]), cols=cols,
            deg=f"{math.degrees(turn):.2g}",
        )  # fmt: skip
    inter = np.flatnonzero(found["interleaved"] == 2)
    return t(
        "mrope.pairs_notice_interleaved",
        inter=number(lengths[inter[0]]),
        chunk=number(lengths[wide[0]]),
    )


def number(x: float) -> str:
    """Three significant digits, a large number in full: 6.28, 160, 35,300."""
    return f"{float(f'{x:.3g}'):,.0f}" if x >= 1000 else f"{x:.3g}"
