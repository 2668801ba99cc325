"""Less text (issue #20, section 4): at the defaults, each tab shows at most
``TAB_WORDS`` words of prose outside collapsed sections, and the whole view (the
page's intro above the tabs, plus the open tab) at most ``VIEW_WORDS``, in English.

Prose is what a reader must read: Markdown, captions and notices. Not counted:
formulas (``st.latex`` and inline ``$...$``), titles and headers, widget labels and
tooltips, Markdown tables (numbers in cells), the sidebar, and whatever sits in an
expander ("Notes"), a popover or a closed tab. The counts are printed at the end of
the run (``words per view``), largest first.
"""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1.element_tree import Block
from support.apptest import run_page
from support.counts import WORDS
from support.views import PAGE_TAB_IDS, PAGE_TABS, script

TAB_WORDS = 120
VIEW_WORDS = 220
PROSE = {"markdown", "caption", "alert", "text", "exception"}
COLLAPSED = {"expander", "popover"}  # AppTest names the Expandable block "expander"
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+(?:[.,]\d+)*", re.U)


def words(markdown: str) -> int:
    """Words of a Markdown text, less formulas and table rows."""
    lines = [line for line in markdown.splitlines() if not line.lstrip().startswith("|")]
    return len(WORD.findall(MATH.sub(" ", "\n".join(lines))))


def prose(node, in_tab: bool = False) -> tuple[int, int]:
    """``(words outside the tabs, words inside the open tab)`` of an element tree,
    without collapsed sections."""
    if isinstance(node, Block):
        if node.type in COLLAPSED:
            return 0, 0
        outside = inside = 0
        for child in node.children.values():
            o, i = prose(child, in_tab or node.type == "tab")
            outside, inside = outside + o, inside + i
        return outside, inside
    if node.type not in PROSE:
        return 0, 0
    body = node.proto.body if node.type == "alert" else node.value
    n = words(body) if isinstance(body, str) else 0
    return (0, n) if in_tab else (n, 0)


def test_words_counts_prose_not_formulas_or_tables():
    assert words("Notice the **diagonal**: $\\omega_i = b^{-2i/d}$ stays 1.5 wide.") == 6
    assert words("| p | PE |\n|---|---|\n| 0 | 1 |\nTwo words") == 2
    assert words("看 这个") == 2


def test_prose_skips_collapsed_notes():
    from streamlit.testing.v1 import AppTest

    def script():
        import streamlit as st

        st.caption("one two")
        with st.expander("Notes"):
            st.markdown("three four five")
        with st.popover("More"):
            st.markdown("six")

    at = AppTest.from_function(script).run()
    assert not at.exception
    assert prose(at.main) == (2, 0)


@pytest.mark.parametrize(("entry", "tab", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_each_view_opens_with_few_words(entry, tab, query):
    at = run_page(script(entry), query, timeout=120)
    intro, in_tab = prose(at.main)
    view = f"{entry.name}[{tab}]" if tab else entry.name
    WORDS[view] = (intro + in_tab, in_tab)
    assert in_tab <= TAB_WORDS, f"{view}: {in_tab} words in the tab (budget {TAB_WORDS})"
    assert intro + in_tab <= VIEW_WORDS, (
        f"{view}: {intro + in_tab} words in the view (budget {VIEW_WORDS})"
    )
