"""Binary counter vs sinusoid: each simpler position code, what fails, what the sinusoid fixes."""

import numpy as np
import streamlit as st

import posenc
from posenc import criteria
from ui.features.binary import figures
from ui.features.binary import tab_distance as distance
from ui.features.binary import tab_loops as loops
from ui.features.binary.data import counter_curves, criteria_rows, evolution_grids
from ui.features.binary.specs import BITS, FOCUS, SPECS, TAB, K
from ui.features.binary.view import criteria_frame
from ui.shared import controls, export, figure_cache
from ui.shared.i18n import t
from ui.shared.notices import shown_notice

figs = figure_cache.builders(figures)  # built once for all sessions (#23)
# Positions drawn, at most (the criteria always use all L): a cap keeps a rerun at the
# largest settings within a few times the default one (issue #7).
MAX_EVOLUTION = 1024

FORMULAS = {  # shared by both languages; gathered lines fit a fifth of the page
    "index": r"e(p)_c = p",
    "normalised": r"e(p)_c = \frac{p}{L-1}",
    "binary": r"\begin{gathered} e(p)_c = \beta_{d-1-c}(p) \\ \beta_i(p) = \lfloor p / 2^i \rfloor"
    r" \bmod 2 \end{gathered}",
    "sin_pow2": r"e(p)_c = \sin\frac{p}{2^{c}}",
    "sinusoidal": r"\begin{gathered} e(p)_{2i} = \sin \omega_i p \\ e(p)_{2i+1} = \cos \omega_i p"
    r" \\ \omega_i = b^{-2i/d} \end{gathered}",
}

# The distance the chart draws (not its square); for the sin/cos pairs the same for every p.
STEP_FORMULA = (
    r"\lVert PE(p{+}k) - PE(p) \rVert = \sqrt{\sum_{i=0}^{d/2-1} \big(2 - 2\cos(\omega_i k)\big)}"
)


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""

    def evolution_tab() -> None:
        """The evolution, side by side on the same positions."""
        st.subheader(t("binary.evolution_header"))
        formulas = st.container()  # above the chart; on a projector or a phone, under it
        focus = controls.toggle(FOCUS, t("binary.focus"), t("binary.focus_help"))
        shown = min(seq_len, MAX_EVOLUTION)
        grids, tops = evolution_grids(seq_len, d_model, base, shown, focus=focus)
        fig = figs.evolution_figure(
            grids, tops, list(names.values()), t("common.dimension"), position,
            height=controls.chart_height(460), stacked=controls.stacked(),
            panel_height=controls.chart_height(220),
        )  # fmt: skip
        controls.plot(fig, "bin_evolution", alt=t("binary.alt_evolution", n=shown))
        with st.container() if controls.compact() else formulas:
            for column, name in zip(controls.cells(5), posenc.SCHEMES, strict=True):
                short = t(f"binary.short_{name}")  # one element a column (issue #32)
                column.markdown(f"**{names[name]}**\n\n$$\n{FORMULAS[name]}\n$$\n\n:small[{short}]")
        shown_notice(grids[0], shown, seq_len, d_model, "binary.evolution_capped")
        st.caption(t("binary.evolution_lead", top=f"{tops[0]:g}"))
        binary, sines = (grids[posenc.SCHEMES.index(name)].cols for name in ("binary", "sin_pow2"))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("binary.intro"))
                for name in posenc.SCHEMES:
                    st.markdown(f"**{names[name]}**: {t(f'binary.flaw_{name}')}")
                if focus and binary.size + sines.size < 2 * d_model:
                    st.caption(t("binary.focus_note", binary=f"{binary[0]:g}–{binary[-1]:g}",
                                 sines=f"{sines[0]:g}–{sines[-1]:g}", d=d_model))  # fmt: skip
                    st.markdown(t("binary.focus_notes"))
                st.caption(t("binary.evolution_notice", top=f"{tops[0]:g}"))
        export.offer("binary_evolution", fig)

    def criteria_tab() -> None:
        """The criteria, measured by posenc.criteria."""
        st.subheader(t("binary.criteria_header"))
        formulas = (
            ("unique", [r"\min_{0 \le m < n < L} \lVert e(m) - e(n) \rVert"]),
            ("bounded", [r"\max_{p < L,\ c} \lvert e(p)_c \rvert"]),
            ("consistent", [r"\max_p D_k(p) - \min_p D_k(p)",
                            r"D_k(p) = \lVert e(p{+}k) - e(p) \rVert",
                            r"\max_{p < L,\ c} \lvert e_L(p)_c - e_{2L}(p)_c \rvert"]),
            ("extrapolates", [r"\min_{p<2L,\ c} e(p)_c,\ \ \max_{p<2L,\ c} e(p)_c",
                              r"\min_{0 \le m < n < 2L} \lVert e(m) - e(n) \rVert"]),
        )  # fmt: skip
        for column, (key, lines) in zip(
            controls.cells(4, per_row=2, widths=(1, 1, 1.5, 1.5)), formulas, strict=True
        ):
            column.markdown(f"**{t(f'binary.crit_name_{key}')}**")
            for line in lines:
                column.latex(line)
        k = int(controls.slider(K, t("binary.k"), t("binary.k_help")))
        rows = criteria_rows(seq_len, d_model, base, k)
        labels = {key: t(f"binary.col_{key}", k=k) for key in
                  ("scheme", "unique", "bounded", "offset", "length", "extrapolates")}  # fmt: skip
        labels |= {f"scheme_{name}": label for name, label in names.items()}
        st.dataframe(criteria_frame(rows, labels), hide_index=True, width="stretch")
        capped = [row for row in rows if row.pairs_checked < 2 * seq_len]
        if capped:
            st.info(t("binary.criteria_cap", rows=capped[0].pairs_checked, total=2 * seq_len))
        passing = ", ".join(names[r.name] for r in rows if r.passes) or t("binary.criteria_none")
        st.caption(t("binary.criteria_lead", passing=passing))
        with controls.notes() as notes:
            if notes.open:
                st.markdown(t("binary.criteria_intro"))
                for key, _ in formulas:
                    st.markdown(t(f"binary.crit_{key}"))
                st.caption(t("binary.criteria_notice", passing=passing))

    def counter_tab() -> None:
        """The binary counter and the sin/cos pairs of matching wavelength."""
        st.subheader(t("binary.counter_header"))
        bits = int(controls.slider(BITS, t("binary.bits"), t("binary.bits_help")))
        counter_base = criteria.counter_base(bits)
        count = 2**bits
        codes = posenc.binary(count, bits)
        left, right = controls.beside([1.3, 3])
        with left:
            table = {
                "p": np.arange(count),
                **{f"b{bits - 1 - j}": codes[:, j] for j in range(bits)},
            }
            st.dataframe(table, hide_index=True, height=min(36 * count + 38, 620))
        fig = figs.waves_figure(
            bits,
            **counter_curves(bits),
            names={key: t(f"binary.wave_{key}") for key in ("bit", "sin", "cos", "smooth")}
            | {"position": "p"},
            row_titles=[
                t("binary.wave_row", i=i, period=2 ** (i + 1), div=2**i) for i in range(bits)
            ],
            height=controls.chart_height(130 * bits + 100),
        )
        controls.plot(fig, "bin_waves", right, alt=t("binary.alt_waves", bits=bits))
        right.caption(t("binary.counter_lead"))
        if bits <= 3:  # the evolution article's picture of the codes as points (d_model = 2 and 3)
            space = figs.code_space_figure(codes, position="p", height=controls.chart_height(420))
            controls.plot(space, "bin_code_space", left, alt=t("binary.alt_code_space", bits=bits))
            steps = np.linalg.norm(np.diff(codes, axis=0), axis=1)
            left.caption(
                t("binary.code_space", bits=bits, top=f"{steps.max():.3g}", at=steps.argmax())
            )
        notes = controls.notes()
        if notes.open:
            notes.markdown(t("binary.counter_intro"))
            notes.caption(t("binary.counter_table"))
            notes.caption(t("binary.counter_notice"))
            notes.latex(
                r"\beta_i(p) = \left\lfloor p / 2^i \right\rfloor \bmod 2"
                r" = \tfrac12 - \tfrac{2}{\pi} \sum_{m\ \mathrm{odd}} \tfrac1m"
                r" \sin\!\big(m\, \omega_i (p + \tfrac12)\big),"
                r"\qquad \omega_i = \frac{2\pi}{2^{i+1}} = \frac{\pi}{2^i}"
            )
            notes.latex(
                r"\lambda_i = 2\pi\, b^{2i/d},\ \ \frac{\lambda_{i+1}}{\lambda_i} = b^{2/d} = 2"
                rf" \;\Rightarrow\; b = 2^{{d/2}} = {counter_base:g},"
                r"\qquad \omega_i = \pi\, b^{-2i/d}"
            )
            notes.latex(
                r"\sin\!\big(\omega_i (p + \tfrac12)\big) = "
                r"\cos\tfrac{\omega_i}{2}\, \sin \omega_i p"
                r" + \sin\tfrac{\omega_i}{2}\, \cos \omega_i p"
            )
            notes.markdown(t("binary.counter_derivation", d=2 * bits, base=f"{counter_base:g}"))
        export.offer("binary_counter", fig, matrix=codes)

    def steps_tab() -> None:
        """Step distance over p."""
        st.subheader(t("binary.steps_header"))
        st.markdown(t("binary.steps_intro"))
        st.latex(STEP_FORMULA)
        k = int(controls.slider(K, t("binary.k"), t("binary.k_help")))
        rows = criteria_rows(seq_len, d_model, base, k)
        curves = [row.steps for row in rows]
        titles = [names[row.name] for row in rows]
        fig = figs.steps_figure(
            curves, titles, "p", t("binary.steps_y", k=k), height=controls.chart_height(600)
        )
        controls.plot(fig, "bin_steps", alt=t("binary.alt_steps", k=k, n=len(curves)))
        if seq_len - k > figs.MAX_LINE_POINTS:
            group = -(-2 * (seq_len - k) // figs.MAX_LINE_POINTS)
            st.caption(t("binary.steps_envelope", limit=figs.MAX_LINE_POINTS, group=group))
        if curves[0].size:
            st.caption(t("binary.steps_notice", value=f"{rows[-1].steps.mean():.6g}"))
            export.offer(
                "binary_steps", fig, matrix=lambda: np.column_stack(curves),
                shape=(len(curves[0]), len(curves)),
            )  # fmt: skip
        else:
            st.caption(t("binary.steps_none", k=k))

    controls.setup_page("binary", SPECS)
    seq_len, d_model, base = controls.shared_controls()
    names = {name: t(f"binary.scheme_{name}") for name in posenc.SCHEMES}
    position = t("common.position")

    st.title(t("binary.title"))
    with controls.lead() as lead:  # folded on a projector or a phone: the chart comes first
        if lead.open:
            st.markdown(t("binary.lead"))

    # One lazy tab per section; the section functions read the page-wide values above.
    SECTIONS = {
        "evolution": evolution_tab,
        "criteria": criteria_tab,
        "counter": counter_tab,
        "steps": steps_tab,
        "loops": lambda: loops.tab(seq_len, d_model, base),
        "distance": lambda: distance.tab(seq_len, d_model, base, names),
    }

    controls.run_open_tab(TAB, "binary", SECTIONS)
