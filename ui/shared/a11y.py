"""What a screen reader, a keyboard and a zoomed browser need beyond Streamlit's own
(issue #33): the page's language, focusable formulas that scroll sideways, and a text
alternative for each chart.

- :func:`prepare` (called by ``controls.setup_page`` on every page) sets
  ``<html lang>`` to the reader's language (Streamlit's page always says ``en``),
  makes each display formula wider than its column (KaTeX scrolls it sideways) a
  focusable, named group, so a keyboard can scroll it (axe's
  ``scrollable-region-focusable``; a formula that fits gets no tab stop), and hides
  the charts' SVG (read as a soup of tick labels) from screen readers, which read the
  text alternative instead. Static script and CSS: the only words in it are the app's
  own texts.
- :func:`chart_alt` is drawn right after each chart by ``ui.shared.layout.plot``: one or
  two sentences on what the chart shows and what to notice, read by a screen reader next
  to the chart and visually hidden (the visible caption under a chart stays as it is).
"""

from __future__ import annotations

import html
import json

import streamlit as st

from ui.shared.i18n import lang, t

# The class of the hidden text alternative after a chart (tests look for it).
ALT_CLASS = "chart-alt"

# Visually hidden, still read (the usual "sr-only" rules); the element containers that
# hold these helpers take no room and no flex gap (absolute: out of the column's flow).
CSS = (
    f".{ALT_CLASS} {{position: absolute !important; width: 1px; height: 1px; padding: 0;"
    " margin: -1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0;}"
    f"[data-testid=stElementContainer]:has(> [data-testid=stHtml] .{ALT_CLASS}),"
    " [data-testid=stElementContainer]:has(> [data-testid=stHtml] script[data-a11y]) {"
    " position: absolute !important; width: 1px; height: 1px; overflow: hidden;"
    " clip-path: inset(50%);}"
    # The menu's link to the page at hand is highlighted already: a keyboard focus on it
    # showed no change (WCAG 2.4.7). A ring in the theme's primary colour, 6.3:1 on the
    # sidebar, on every menu link the keyboard reaches.
    "[data-testid=stSidebar] [data-testid=stPageLink] a:focus-visible {"
    " outline: 2px solid #b2182b; outline-offset: -2px;}"
)

# Runs on every page (again when the language changes: a new body re-runs it). The
# formula pass runs now, on every change of the page (Streamlit redraws elements in
# place) and when a formula or its box changes size (fonts arriving, a narrower window).
SCRIPT = """
(() => {
  document.documentElement.setAttribute("lang", %(lang)s);
  window.__posencA11y = {label: %(label)s};
  if (window.__posencA11yPass) { window.__posencA11yPass(); return; }
  const watched = new WeakSet();
  let queued = false;
  const later = () => {
    if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; pass(); }); }
  };
  // A formula's width changes without a DOM change when KaTeX's fonts arrive or its
  // column resizes: watch the box and the formula inside it.
  const sizes = new ResizeObserver(later);
  const pass = () => {
    // A chart's SVG reads as its tick labels ("0 20 40 60 ..."): hidden from screen
    // readers, which read the chart's text alternative drawn right after it instead.
    for (const svg of document.querySelectorAll("[data-testid=stPlotlyChart] svg.main-svg")) {
      if (!svg.hasAttribute("aria-hidden")) svg.setAttribute("aria-hidden", "true");
    }
    for (const el of document.querySelectorAll(".katex-display")) {
      if (!watched.has(el)) {
        watched.add(el);
        sizes.observe(el);
        if (el.firstElementChild) sizes.observe(el.firstElementChild);
      }
      const scrolls = el.scrollWidth > el.clientWidth + 1;
      if (scrolls) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "group");
        el.setAttribute("aria-label", window.__posencA11y.label);
      } else if (el.hasAttribute("tabindex")) {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
    }
  };
  window.__posencA11yPass = pass;
  new MutationObserver(later).observe(document.body, {childList: true, subtree: true});
  pass();
})();
"""


def prepare() -> None:
    """The page's language and the focusable formulas (:data:`SCRIPT`), and the CSS of
    the hidden chart texts (:data:`CSS`). Call once per run, before the page's content."""
    fields = {"lang": json.dumps(lang()), "label": json.dumps(t("a11y.formula_scrolls"))}
    st.html(  # one element, not two: each costs every rerun of a room (issue #32)
        f"<style>{CSS}</style><script data-a11y>{SCRIPT % fields}</script>",
        unsafe_allow_javascript=True,
    )


def chart_alt(text: str, where=st) -> None:
    """The text alternative of the chart just drawn in ``where``: hidden on screen, read
    by a screen reader right after the chart."""
    where.html(f'<p class="{ALT_CLASS}">{html.escape(text)}</p>')
