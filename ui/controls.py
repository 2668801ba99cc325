"""Widgets bound to query parameters, checked before they are drawn.

Every control is described by a spec of ``ui.params``. ``setup_page`` checks the URL
against the page's specs first: a value that does not parse is replaced by the default
and named in a short notice, an unknown name is dropped from the URL and named too.
Then the widgets are drawn with ``bind="query-params"``, so the URL always reproduces
the view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from urllib.parse import urlencode

import streamlit as st

from ui import menu
from ui.figures.common import STACKED_TOP, legend_below, legend_entries, presenter_fonts
from ui.i18n import say, t
from ui.params import (
    BASE,
    CARRIED,
    D_MODEL,
    LANG,
    PRESENT,
    SEQ_LEN,
    BoolParam,
    ChoiceParam,
    IntParam,
    TextParam,
    base_limits,
    nice_values,
)
from ui.safe_text import markdown_code
from ui.texts import text

_NOTICES = "_posenc_notices"
_FIXES = "_posenc_fixes"
_PENDING = "_posenc_pending_notices"
_ASSIGNED = "_posenc_assigned"
_TABS_WRITTEN = "_posenc_tabs_written"  # tab key -> the label this session put in the URL


def assign(values: dict) -> None:
    """Set widgets' values from code (presets; call it from a button's ``on_click``).

    The keys are remembered so the widgets are then drawn without a ``value`` argument,
    which would make Streamlit warn about a value set twice.
    """
    assigned = st.session_state.setdefault(_ASSIGNED, set())
    for key, value in values.items():
        st.session_state[key] = value
        assigned.add(key)


def check_query_params(specs: Iterable, raw: dict[str, str]) -> list[str]:
    """Validate the URL values ``raw`` against ``specs``; return one message per problem.

    Unknown names and invalid values are dropped from the URL before any widget binds
    them, so Streamlit's own widget code never sees them (a 10 000-digit integer in a
    bound number box would otherwise crash inside Streamlit). The messages are
    Markdown: a name or value from the URL is escaped (``ui.safe_text``).
    """
    specs = {spec.key: spec for spec in specs}
    problems = []
    for key, value in raw.items():
        spec = specs.get(key)
        if spec is None:
            problems.append(t("common.notice_unknown", name=markdown_code(key)))
            _drop(key)
            continue
        try:
            spec.parse(value)
        except ValueError as error:
            problems.append(say(error))
            _drop(key)
    return problems


def _drop(key: str) -> None:
    try:
        del st.query_params[key]
    except Exception:  # a parameter already bound to a widget belongs to it
        pass


FAVICON = str(Path(__file__).resolve().parents[1] / "assets" / "favicon.png")


def setup_page(name: str, specs: Sequence = ()) -> None:
    """Page config, URL checks, language switch, shared menu. Call first on every page.

    The favicon is a local file: a ``:material/...:`` page icon would be fetched from a
    font CDN, and the app must work offline.
    """
    st.set_page_config(page_title="PosEnc Explorer", page_icon=FAVICON, layout="wide")
    # Read the URL before any bound widget drops an invalid value from it.
    raw = {key: st.query_params.get(key, "") for key in st.query_params.keys()}
    menu.seed_from_url(raw)
    language_switch()  # before the checks, so that notices are in the chosen language
    present = toggle(PRESENT, t("common.present"), t("common.present_help"), container=st.sidebar)
    # A projector's 1024 px are the slide's: the sidebar starts closed (its toggle
    # and the shared settings are one click away). The front end applies this when a
    # page loads and whenever the value changes, so ticking "presenter mode" closes it.
    st.set_page_config(initial_sidebar_state=sidebar_state(bool(present)))
    problems = st.session_state.pop(_NOTICES, [])
    problems += [p for p in check_query_params([*CARRIED, *specs], raw) if p not in problems]
    st.session_state[_PENDING] = problems  # survives a corrective rerun (_checked)
    menu.draw(current=name)
    share_link(specs, raw)
    if problems:
        st.warning(t("common.notice_header") + "\n\n" + "\n".join(f"- {p}" for p in problems))
    if st.session_state.get(PRESENT.key):
        menu.presenter_style()
    elif phone():
        menu.narrow_style()


def presenting() -> bool:
    """Presenter mode (``present=1``): bigger type and charts for a projector."""
    return bool(st.session_state.get(PRESENT.key, False))


def sidebar_state(present: bool) -> str:
    """``initial_sidebar_state`` of a page: closed in presenter mode, else Streamlit's
    "auto" (open on a desktop, closed on a phone)."""
    return "collapsed" if present else "auto"


def compact() -> bool:
    """A projector or a phone: the first chart must come within one screen, so a
    page's lead and formula fold away (:func:`lead`) and panels stack (:func:`stacked`)."""
    return presenting() or phone()


def stacked() -> bool:
    """Multi-panel figures one panel above the other: on a phone (panels side by side
    are 60 px wide there) and on a projector (read from the back of the room)."""
    return compact()


def lead():
    """Where a page's lead and its formula go (``with controls.lead(): ...``): open
    on a desktop; on a projector or a phone a collapsed expander under the title, so
    that the title, the controls the chart needs and the chart fill the first screen."""
    if compact():
        return st.expander(t("common.about_page"), icon=":material/info:")
    return st.container()


def chart_height(height: int) -> int:
    """Figure height for the current mode: 1.5x in presenter mode."""
    return int(height * 1.5) if presenting() else height


def cells(count: int, *, per_row: int = 3, widths: Sequence[float] | None = None) -> list:
    """``count`` columns in one row (relative ``widths``, default equal); in presenter
    mode, rows of at most ``per_row`` equal columns.

    Presenter type is 1.5x larger, but a 1024 px projector with the sidebar open still
    leaves ~560 px: five formulas or six buttons in one row are cut there. Every row has
    ``per_row`` columns, so the short last row lines up under the full ones.
    """
    if not presenting() or count <= per_row:
        return list(st.columns(widths or count))
    found: list = []
    while len(found) < count:
        found += st.columns(per_row)[: count - len(found)]
    return found


def beside(widths: Sequence[float]) -> list:
    """Columns side by side (relative ``widths``) for charts and what goes with them; in
    presenter mode one above the other, each the full width.

    A 1024 px projector with the sidebar open leaves ~560 px: two charts side by side
    are ~270 px wide there, a square heatmap ~130 px. Texts must not say "left" or
    "right" of such columns.
    """
    return cells(len(widths), per_row=1, widths=widths)


def phone() -> bool:
    """A phone or tablet browser: charts stack their panels and put legends underneath.

    Python cannot see the screen's width; the User-Agent is what the server has. Mobile
    browsers write "Mobi" in it (the test MDN recommends); desktop browsers, whatever
    their window size, do not.
    """
    return "Mobi" in (st.context.headers.get("User-Agent") or "")


_ALIGNED = (r"\begin{aligned}", r"\end{aligned}")
_ENVIRONMENT = re.compile(r"\\(begin|end)\{[^}]*\}")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")  # % to the end of the line, not \%
_ROW_OPTIONS = re.compile(r"\*?(\s*\[[^\]]*\])?")  # \\* and \\[2pt] after a row break


def aligned_rows(tex: str) -> list[str] | None:
    r"""The rows of a formula that is one ``aligned`` block, without their ``&``
    alignment points, or None for any other formula (left as it is).

    Rows split at ``\\`` outside braces and nested environments (a matrix's rows and
    cells stay whole); a continuation row keeps its relation (``= x_0 \cos B ...``).
    Comments and a row break's ``*`` or ``[2pt]`` are dropped; unbalanced braces or
    environments give None.
    """
    body = _COMMENT.sub("", tex).strip()
    if not (body.startswith(_ALIGNED[0]) and body.endswith(_ALIGNED[1])):
        return None
    body = body[len(_ALIGNED[0]) : -len(_ALIGNED[1])]
    rows, row, depth, i = [], [], 0, 0
    while i < len(body):
        if body.startswith("\\\\", i) and depth == 0:
            rows.append("".join(row).strip())
            row, i = [], _ROW_OPTIONS.match(body, i + 2).end()
            continue
        environment = _ENVIRONMENT.match(body, i)
        if environment:
            depth += 1 if environment.group(1) == "begin" else -1
            row.append(environment.group(0))
            i = environment.end()
        elif body[i] == "\\":  # a control sequence: \{ \} \& do not open, close or align
            row.append(body[i : i + 2])
            i += 2
        else:
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            if not (body[i] == "&" and depth == 0):
                row.append(body[i])
            i += 1
        if depth < 0:  # e.g. two aligned blocks side by side: not one block
            return None
    rows.append("".join(row).strip())
    return [r for r in rows if r] if depth == 0 else None


def latex(tex: str) -> None:
    r"""``st.latex``; on a phone, an ``aligned`` derivation becomes plain display math
    with a line break (``\\``) after each row.

    Aligned math is one table that cannot wrap, and the derivations are wider than a
    phone; plain display math wraps after a relation or operator (:data:`menu.NARROW_CSS`).
    """
    rows = aligned_rows(tex) if phone() else None
    st.latex(r" \\ ".join(rows) if rows else tex)


def fit_phone(fig):
    """Fit ``fig`` to the screen: projector type in presenter mode (:func:`presenter_fonts`);
    on a phone, a legend above the plot moves under it (:func:`legend_below`), and
    titles at the top move down from under the toolbar a touch screen always shows."""
    if presenting():
        presenter_fonts(fig)
    if not phone():
        return fig
    if (fig.layout.legend.y or 0) > 1:  # one entry a row at worst on a 390 px screen
        legend_below(fig, rows=legend_entries(fig))
    top, wanted = fig.layout.margin.t or 0, 0
    if any((a.y or 0) >= 0.99 for a in fig.layout.annotations):  # subplot titles
        wanted = STACKED_TOP
    if fig.layout.title.text:  # by default centred in the top margin: pin it to the plot
        fig.update_layout(title=dict(yref="paper", y=1, yanchor="bottom", pad=dict(b=8)))
        wanted = STACKED_TOP + 10
    if top < wanted:
        fig.update_layout(margin=dict(t=wanted), height=(fig.layout.height or 450) + wanted - top)
    return square_on_phone(fig)


# Width of a chart on a 390 px phone (Streamlit pads the page by 1 rem each side), and
# the room a colour bar takes right of the plot (bar, tick labels, gaps).
PHONE_CHART_WIDTH, COLORBAR_ROOM = 358, 80


def square_on_phone(fig):
    """A square heatmap (y scaled to x) on a phone: as tall as it is wide.

    On a 358 px wide chart the square plot is ~220 px; in a taller figure Plotly
    centres it in the height while the colour bar still spans the full height, twice
    as tall as the plot. Lowering the figure makes the height the limit: bar = plot.
    """
    square = any(axis.scaleanchor for axis in fig.select_yaxes())
    bars = [tr for tr in fig.data if tr.type == "heatmap" and tr.showscale is not False]
    if not (square and bars and len(fig.layout.annotations) <= 1):
        return fig
    margin = fig.layout.margin
    left = 80 if margin.l is None else margin.l
    side = PHONE_CHART_WIDTH - left - max(margin.r or 0, COLORBAR_ROOM)
    height = (
        int(0.97 * side)
        + (100 if margin.t is None else margin.t)
        + (80 if margin.b is None else margin.b)
    )
    if height < (fig.layout.height or 450):
        fig.update_layout(height=height)
    return fig


# On a touch screen Plotly's mode bar shows all the time, over the top of the plot: a
# phone gets none (pinch and double-tap still zoom and reset).
PHONE_CONFIG = {"displayModeBar": False}


def plot(fig, key: str, where=st, *, on_select=None):
    """Draw ``fig`` at the full width of ``where``, fitted to the screen (:func:`fit_phone`);
    on a phone without Plotly's mode bar (:data:`PHONE_CONFIG`). ``on_select``: a
    callback for a click on a point (``ui.grab.plot`` passes it)."""
    config = PHONE_CONFIG if phone() else None
    select = dict(on_select=on_select, selection_mode="points") if on_select else {}
    return where.plotly_chart(fit_phone(fig), width="stretch", key=key, config=config, **select)


def view_params(specs: Sequence, raw: dict[str, str]) -> dict[str, str]:
    """Query parameters that reproduce the current view: every setting not at its default.

    Widget values come from Session State; on a first load, before a widget has run,
    from its (valid) URL value. The backend's ``st.query_params`` lags one rerun behind
    bound widgets, so it is not used.
    """
    carried = menu.carried_values()
    params = {}
    for spec in [*CARRIED, *specs]:
        if spec.key in st.session_state:
            value = st.session_state[spec.key]
        elif spec.key in carried:
            value = carried[spec.key]
        else:
            try:
                value = spec.parse(raw[spec.key])
            except (KeyError, ValueError):
                continue
        if value != spec.default:
            params[spec.key] = _as_text(value)
    return params


def share_link(specs: Sequence, raw: dict[str, str]) -> None:
    """A 'link to this view' affordance in the sidebar: the full address, ready to copy."""
    query = urlencode(view_params(specs, raw))
    address = (st.context.url or "") + (f"?{query}" if query else "")
    with st.sidebar.popover(t("common.share"), icon=":material/link:"):
        st.caption(t("common.share_help"))
        st.code(address or t("common.share_defaults"), language=None, wrap_lines=True)


def _widget_arguments(spec, *, set_by_code: bool) -> dict:
    """``value`` and ``bind`` for a widget of ``spec``.

    Page settings are bound to the URL by Streamlit. The settings carried across pages
    are not: element ids include the page, so each page has its own ``seq_len`` widget,
    and Streamlit drops a bound parameter from the URL when the page that bound it is
    left, which would lose the values a menu link carries. Those widgets start from the
    carried value, and ``_sync_url`` writes the URL.

    ``value`` is always passed (otherwise a fresh widget starts at Streamlit's implicit
    default, a slider's minimum) except right after code assigned the key in Session
    State, when passing it makes Streamlit warn on screen.
    """
    carried = spec in CARRIED
    arguments = {} if _synced(spec) else {"bind": "query-params"}
    if not set_by_code:
        start = menu.carried_values().get(spec.key, spec.default) if carried else spec.default
        if _synced(spec) and not carried:
            start = _url_value(spec)
        arguments["value"] = start
    return arguments


def _synced(spec) -> bool:
    """Whether ``spec``'s URL value is read and written here, not by Streamlit: the
    carried settings, choices (a bound radio writes its displayed, translated label
    into the URL; the URL keeps the option's code, the same in both languages), and
    texts (a bound text box takes the first ``max_chars`` characters of a longer URL
    value and writes them back into the URL, after :func:`check_query_params` refused
    it: the notice said "reset to the default" while the cut text was used)."""
    return spec in CARRIED or isinstance(spec, (ChoiceParam, TextParam))


def _url_value(spec):
    """The URL's (valid) value of ``spec``, else its default."""
    try:
        return spec.parse(st.query_params[spec.key])
    except (KeyError, ValueError):
        return spec.default


def _sync_url(spec, value) -> None:
    if not _synced(spec):
        return
    if value != spec.default:
        st.query_params[spec.key] = _as_text(value)
    elif spec.key in st.query_params:
        del st.query_params[spec.key]


def _as_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _checked(spec, draw: Callable[[dict], object]):
    """Draw a widget of ``spec``; if its value breaks the spec, reset it and rerun once.

    On a first load the URL beats Session State, and Streamlit checks only the range
    of a URL value (not, say, that d_model is even). A value set in Session State wins
    on every later run, hence the rerun; the notice survives it.
    """
    fixes = st.session_state.setdefault(_FIXES, {})
    assigned = st.session_state.setdefault(_ASSIGNED, set())
    if spec.key in fixes:
        st.session_state[spec.key] = fixes.pop(spec.key)
        assigned.add(spec.key)
    set_by_code = spec.key in assigned
    assigned.discard(spec.key)
    value = draw(_widget_arguments(spec, set_by_code=set_by_code))
    try:
        spec.parse(_as_text(value))
    except ValueError as error:
        fixes[spec.key] = spec.default
        pending = st.session_state.get(_PENDING, [])
        message = say(error)
        st.session_state[_NOTICES] = [*pending, *([message] if message not in pending else [])]
        st.rerun()
    _sync_url(spec, value)
    return value


def slider(spec, label: str, help: str, *, container=st, maximum=None, **kwargs):
    """A slider of ``spec``; ``maximum`` lowers its upper end for the current settings
    (a larger value, from the URL or an earlier setting, is drawn at that end). When
    that leaves one value, the slider is drawn disabled at it (Streamlit refuses a
    slider whose ends are equal)."""
    top = spec.maximum if maximum is None else max(spec.minimum, min(maximum, spec.maximum))
    if top < spec.maximum and (st.session_state.get(spec.key) or spec.minimum) > top:
        assign({spec.key: top})
    if top == spec.minimum:
        kwargs["disabled"] = True

    def draw(initial: dict):
        if "value" in initial:
            initial = {**initial, "value": min(initial["value"], top)}
        return container.slider(
            label,
            min_value=spec.minimum,
            max_value=max(top, spec.minimum + spec.step),
            step=spec.step,
            key=spec.key,
            help=help,
            **initial,
            **kwargs,
        )

    return _checked(spec, draw)


def number(spec, label: str, help: str, *, container=st, **kwargs):
    """A number box. For an ``IntParam`` it is a float box showing whole numbers.

    Streamlit's integer box converts a bound URL value with ``int(float(text))``, which
    raises inside Streamlit for a 10 000-digit value (float infinity); a float box turns
    it into an out-of-range value that Streamlit itself discards. ``%.0f`` shows whole
    numbers (``%d`` on a float box logs a warning with a stack trace on every rerun).
    """
    integer = isinstance(spec, IntParam)
    minimum = spec.minimum
    if getattr(spec, "exclusive_minimum", False):
        minimum = spec.minimum + 1e-9

    def draw(initial: dict):
        if integer and "value" in initial:
            initial = {**initial, "value": float(initial["value"])}
        return container.number_input(
            label,
            min_value=float(minimum) if integer else minimum,
            max_value=float(spec.maximum) if integer else spec.maximum,
            step=float(spec.step) if integer else spec.step,
            key=spec.key,
            help=help,
            **({"format": "%.0f"} if integer else {}),
            **initial,
            **kwargs,
        )

    value = _checked(spec, draw)
    return int(value) if integer else value


def choice(
    spec: ChoiceParam,
    label: str,
    help: str,
    *,
    labels: Sequence[str],
    captions: Sequence[str] | None = None,
    container=st,
    horizontal: bool = True,
):
    """A radio of the spec's options, shown as ``labels`` (words in the reader's
    language, one per option) and kept in the URL as the option's code.

    Streamlit 1.67's ``bind="query-params"`` writes a radio's *displayed* label into
    the URL (and only accepts a label there), so a link made in Chinese would not open
    in English. The radio is therefore not bound: it starts from the URL's code
    (``_widget_arguments``) and ``_sync_url`` writes the code, as for the carried
    settings. The value returned is the code.
    """
    shown = dict(zip(spec.options, labels, strict=True))

    def draw(initial: dict):
        initial = dict(initial)
        if "value" in initial:
            initial["index"] = spec.options.index(initial.pop("value"))
        return container.radio(
            label,
            spec.options,
            format_func=lambda code: shown.get(code, code),
            key=spec.key,
            help=help,
            captions=captions,
            horizontal=horizontal,
            **initial,
        )

    return _checked(spec, draw)


def toggle(spec: BoolParam, label: str, help: str, *, container=st):
    return _checked(
        spec,
        lambda initial: container.checkbox(label, key=spec.key, help=help, **initial),
    )


def text_input(spec, label: str, help: str, *, container=st, **kwargs):
    return _checked(
        spec,
        lambda initial: container.text_input(
            label,
            key=spec.key,
            help=help,
            max_chars=spec.max_chars,
            **initial,
            **kwargs,
        ),
    )


def language_switch() -> str:
    return choice(
        LANG,
        "Language / 语言",
        "English or Chinese / 英文或中文",
        labels=["English", "中文"],
        container=st.sidebar,
    )


def coarse_key(spec: IntParam) -> str:
    """Session key of the coarse slider above ``spec``'s number box (not in the URL)."""
    return f"{spec.key}_coarse"


def _take_coarse(spec: IntParam) -> None:
    assign({spec.key: int(st.session_state[coarse_key(spec)])})


def size(spec: IntParam, label: str, help: str, *, container=st, coarse: bool = True) -> int:
    """A slider of nice values (``ui.params.nice_values``) over an exact number box.

    The number box holds the setting (key and URL value ``spec.key``, any valid integer);
    the slider's stops are a few pixels apart at any width, and it always shows the box's
    value (added as a stop when it is not a nice one). An integer box is safe here: the
    carried settings are not bound to the URL, which is checked before any widget runs.
    ``coarse=False``: the labelled number box alone (half the height, for a phone).
    """
    slot = container.container()
    value = _checked(
        spec,
        lambda initial: container.number_input(
            label, min_value=spec.minimum, max_value=spec.maximum, step=spec.step,
            key=spec.key, help=help, label_visibility="collapsed" if coarse else "visible",
            **initial,
        ),
    )  # fmt: skip
    value = int(value)
    if not coarse:
        return value
    st.session_state[coarse_key(spec)] = value
    slot.select_slider(
        label, sorted({*nice_values(spec), value}), key=coarse_key(spec), help=help,
        on_change=_take_coarse, args=(spec,),
    )  # fmt: skip
    return value


def shared_controls(*, seq_len: bool = True, inline: bool = False) -> tuple[int, int, float]:
    """The sidebar controls ``seq_len``, ``d_model``, ``base`` shared by the pages.

    ``inline``: on a projector or a phone (:func:`compact`), where the sidebar starts
    closed, ``seq_len`` and ``d_model`` are drawn here in the page, side by side (for a
    first chart that depends on them); ``base`` stays in the sidebar.
    """
    sidebar = st.sidebar
    sidebar.subheader(t("common.shared_controls"))
    here = st.columns(2) if inline and compact() else [sidebar, sidebar]
    coarse = not (inline and phone())  # a phone stacks the columns: number boxes only
    length = SEQ_LEN.default
    if seq_len:
        length = size(
            SEQ_LEN, t("common.seq_len"), t("common.seq_len_help"), container=here[0],
            coarse=coarse,
        )  # fmt: skip
    d_model = size(
        D_MODEL, t("common.d_model"), t("common.d_model_help"), container=here[1], coarse=coarse
    )
    base_help = t("common.base_help", **base_limits(BASE))
    base = number(BASE, t("common.base"), base_help, container=sidebar, format="%g")
    menu.remember()
    return int(length), int(d_model), float(base)


def lazy_tabs(spec: ChoiceParam, page: str, names: Sequence[str]) -> dict:
    """``st.tabs`` kept in the URL (``spec`` from ``ui.specs.tab_param``): only the open
    tab's ``.open`` is True, so a page computes what is on screen and nothing else.

    The URL holds the open tab's name, a code of either language (none for the first
    tab), written here rather than by ``bind="query-params"``, which would write the
    displayed label. A label of either language in a link opens its tab too; so does an
    address the visitor edits or the browser's back button restores (a URL value this
    function did not write wins over the session).
    """
    labels = [t(f"{page}.tab_{name}") for name in names]
    written = st.session_state.setdefault(_TABS_WRITTEN, {})
    url = st.query_params.get(spec.key)
    current = st.session_state.get(spec.key)
    if url is not None and url != written.get(spec.key):
        current = url
    index = spec.options.index(current) % len(labels) if current in spec.options else 0
    st.session_state[spec.key] = labels[index]
    containers = st.tabs(labels, key=spec.key, on_change="rerun")
    opened = next((label for label, c in zip(labels, containers, strict=True) if c.open), None)
    if opened is None or opened == labels[0]:
        st.query_params.pop(spec.key, None)
        written[spec.key] = None
    else:
        st.query_params[spec.key] = written[spec.key] = names[labels.index(opened)]
    return dict(zip(names, containers, strict=True))


def open_tab(spec: ChoiceParam, page: str, name: str) -> None:
    """Open tab ``name`` of :func:`lazy_tabs` on the next run (from a button's
    ``on_click``: a preset opens the tab that shows what it sets)."""
    st.session_state[spec.key] = t(f"{page}.tab_{name}")


def run_open_tab(spec: ChoiceParam, page: str, sections: dict[str, Callable[[], None]]) -> None:
    """:func:`lazy_tabs` with one function per tab (in tab order): run the open one."""
    english = [text("en", f"{page}.tab_{name}") for name in sections]
    names = list(spec.options[-len(sections) :])
    if english != list(spec.options[: len(english)]) or names != list(sections):
        raise ValueError(f"sections {list(sections)} are not the tabs of {spec.key}, in order")
    for name, tab in lazy_tabs(spec, page, list(sections)).items():
        if tab.open:
            with tab:
                sections[name]()


def notes():
    """A tab's collapsed "Notes" (``with controls.notes(): ...``): corrections of the
    sources, float and framework details, longer derivations. What a tab shows open
    is its chart and two short lines (``tests/test_word_budget.py`` counts them)."""
    return st.expander(t("common.notes"), icon=":material/notes:")
