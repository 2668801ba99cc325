"""Start here: the guided story, one idea per step (the workshop deck).

``?step=N`` opens step N; Back / Next (and the arrow keys) move through the steps. The
steps themselves live in ``ui.features.story.view``: each draws two short lines, at most
two controls, one chart computed live, a formula and a link to the page and tab that go deeper.
"""

from __future__ import annotations

import streamlit as st

from ui.features.story import specs
from ui.features.story.specs import SPECS
from ui.features.story.view import STEPS, VIEWS, Deeper, Live, deck_file, deeper_page
from ui.shared import controls, export, menu
from ui.shared.i18n import lang, t

_WRITTEN = "_story_step_written"  # the step this session last put in the URL


@controls.taking_turns
def render() -> None:
    """Draw the page (its entry script calls this on every run)."""
    controls.setup_page("story", SPECS)
    show(current_step())
    offer_deck()


def current_step() -> int:
    """The step to show: the URL's ``step`` when it changed outside this session (a link,
    the address bar, the browser's back button), else the session's; written back to the
    URL so the address always names the slide."""
    url = st.query_params.get(specs.STEP.key)
    step = st.session_state.get(specs.STEP.key, specs.STEP.default)
    if url is not None and url != st.session_state.get(_WRITTEN):
        try:
            step = specs.STEP.parse(url)
        except ValueError:  # setup_page has named it in a notice and dropped it
            step = specs.STEP.default
    _go(step)
    return step


def _go(step: int) -> None:
    st.session_state[specs.STEP.key] = step
    st.session_state[_WRITTEN] = str(step)
    controls.write_param(specs.STEP.key, str(step))


def navigation(step: int) -> None:
    """Back / Next (also the arrow keys) and "Step n of N"."""
    row = st.container(horizontal=True, vertical_alignment="center")
    row.button(
        t("story.back"), key="story_back", shortcut="left",
        disabled=step <= 1, on_click=_go, args=(step - 1,), help=t("story.back_help"),
    )  # fmt: skip
    row.button(
        t("story.next"), key="story_next", shortcut="right",
        disabled=step >= len(STEPS), on_click=_go, args=(step + 1,), help=t("story.next_help"),
        type="primary",
    )  # fmt: skip
    row.markdown(t("story.step_of", n=step, total=len(STEPS)))


def show(step: int) -> Deeper:
    """Draw step ``step`` (1-based) and its go-deeper link; return the link's target."""
    name = STEPS[step - 1]
    st.header(t(f"story.{name}_title"))
    navigation(step)
    deeper = VIEWS[name](Live(st.empty()))
    target = deeper_page(deeper)
    st.page_link(
        target.path,
        label=t("story.deeper", page=t(target.label_key), tab=t(f"{deeper.page}.tab_{deeper.tab}")),
        icon=":material/explore:",
        query_params=link_params(deeper),
    )
    with controls.notes() as notes:
        if notes.open:
            st.markdown(t(f"story.{name}_notes"))
    return deeper


def link_params(deeper: Deeper) -> dict[str, str]:
    """The go-deeper link's query: the carried settings, the tab, the step's settings."""
    return {**menu.link_params(), deeper.tab_key: deeper.tab, **deeper.params}


# ------------------------------------------------------------------ the offline deck


def offer_deck() -> None:
    """The story as one offline HTML file in the reader's language (the file
    ``tools/export_deck.py`` writes, without go-deeper links: the page knows no address
    it may trust), in a popover: built on the first click, then kept per language."""
    language = lang()
    popover = controls.popover(
        t("story.deck"), name="story_deck", icon=":material/slideshow:", help=t("story.deck_help")
    )
    if not popover.open:
        return
    popover.download_button(
        t("story.deck_download"), data=lambda: deck_download(language),
        file_name=f"story-{language}.html", mime="text/html", key="story_deck",
        help=t("story.deck_download_help"), on_click="ignore", icon=":material/download:",
        width="stretch",
    )  # fmt: skip


def deck_download(language: str) -> bytes:
    """The payload of the deck download (built once per language and process)."""
    return export.built(lambda data: data, lambda: deck_bytes(language))


@st.cache_resource(max_entries=2, show_spinner=False)
def deck_bytes(language: str) -> bytes:
    """The deck of ``language`` as UTF-8 bytes (about 7 MB; one per language)."""
    return deck_file(language).encode("utf-8")
