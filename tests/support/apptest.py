"""Running the app in Streamlit's AppTest: a page with query parameters, on one of its lazy
tabs, a tab opened as a click does; every run asserts that no exception was shown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from streamlit.testing.v1 import AppTest

from .paths import APP, ROOT


def run_page(
    page: str | Path | None = None,
    query: dict | None = None,
    timeout: float = 60,
    *,
    unfold: bool = True,
) -> AppTest:
    """Run the home page or ``pages/<page>`` with ``query`` parameters; fail on exceptions.

    A page is opened through the entrypoint (``switch_page`` before the first run), as
    Streamlit does for a deep link: run as the main script, its ``st.page_link("app.py")``
    would be resolved against ``pages/``.

    ``unfold``: draw the content of every popover and expander as if it were open
    (``ui.shared.folds.UNFOLD``), so that a test reads every text and widget of the view.
    A visitor's first view has them closed and empty: ``unfold=False``.
    """
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    if unfold:
        from ui.shared.folds import UNFOLD  # here: the first-chart budget counts ui modules

        at.session_state[UNFOLD] = True
    for key, value in (query or {}).items():
        at.query_params[key] = value
    if page is not None:
        path = ROOT / "pages" / page if isinstance(page, str) else Path(page)
        if path.resolve() != APP:
            at.switch_page(str(path.relative_to(ROOT)))
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def rerun(at: AppTest) -> AppTest:
    """Run ``at`` again (after a widget changed); no exception allowed."""
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def tab_label(specs, name: str, lang: str = "en") -> str:
    """The URL label of lazy tab ``name`` of a page (``specs``: its
    ``ui.features.<page>.specs`` module)."""
    offset = len(specs.TAB_NAMES) if lang == "zh" else 0
    return specs.TAB.options[offset + specs.TAB_NAMES.index(name)]


def run_page_on_tab(page, specs, query: dict | None, tab: str | None, timeout: float) -> AppTest:
    """:func:`run_page` with lazy tab ``tab`` (a name of ``specs.TAB_NAMES``) in the URL;
    ``None`` opens the first tab."""
    query = {k: str(v) for k, v in (query or {}).items()}
    if tab:
        query[specs.TAB.key] = tab_label(specs, tab)
    return run_page(page, query, timeout)


def switch_tab(at: AppTest, specs, name: str) -> AppTest:
    """Open another tab in a running AppTest, as a click does (the URL and the widget)."""
    label = tab_label(specs, name)
    at.query_params[specs.TAB.key] = label
    at.session_state[specs.TAB.key] = label
    return rerun(at)


@dataclass(frozen=True)
class Page:
    """A page script (``pages/<script>``) with its ``ui.features.<page>.specs`` module."""

    script: str
    specs: ModuleType
    timeout: float = 240

    def tab_label(self, name: str, lang: str = "en") -> str:
        """The URL label of lazy tab ``name`` in ``lang``."""
        return tab_label(self.specs, name, lang)

    def open(
        self, query: dict | None = None, tab: str | None = None, timeout: float | None = None
    ) -> AppTest:
        """The page with ``query`` in the URL, reached through app.py as a visitor does, on
        tab ``tab`` (a name of ``TAB_NAMES``; default: the first); no exception allowed."""
        return run_page_on_tab(self.script, self.specs, query, tab, timeout or self.timeout)

    def open_tab(self, at: AppTest, tab: str) -> AppTest:
        """Open tab ``tab`` in a running AppTest, as a click does."""
        return switch_tab(at, self.specs, tab)
