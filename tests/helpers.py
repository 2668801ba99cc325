"""What the per-page test files share: a page opened on one of its lazy tabs, and what
is read back from an AppTest (captions, chart ids and sizes). One definition each."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import conftest
from streamlit.testing.v1 import AppTest


@dataclass(frozen=True)
class Page:
    """A page script (``pages/<script>``) with its ``ui.specs`` module."""

    script: str
    specs: ModuleType
    timeout: float = 240

    def tab_label(self, name: str, lang: str = "en") -> str:
        """The URL label of lazy tab ``name`` in ``lang``."""
        return conftest.tab_label(self.specs, name, lang)

    def open(
        self, query: dict | None = None, tab: str | None = None, timeout: float | None = None
    ) -> AppTest:
        """The page with ``query`` in the URL, reached through app.py as a visitor does, on
        tab ``tab`` (a name of ``TAB_NAMES``; default: the first); no exception allowed."""
        return conftest.run_page_on_tab(
            self.script, self.specs, query, tab, timeout or self.timeout
        )

    def open_tab(self, at: AppTest, tab: str) -> AppTest:
        """Open tab ``tab`` in a running AppTest, as a click does."""
        return conftest.switch_tab(at, self.specs, tab)


def captions(at: AppTest) -> str:
    """Every caption on screen, one per line (for a phrase inside some caption)."""
    return "\n".join(caption_list(at))


def caption_list(at: AppTest) -> list[str]:
    """Each caption on screen, whole (for a text that must be one caption exactly)."""
    return [c.value for c in at.caption]


def chart_ids(at: AppTest) -> list[str]:
    return [el.proto.id for el in at.get("plotly_chart")]


def chart_sizes(at: AppTest) -> list[int]:
    """Bytes of each chart's JSON as sent to the browser."""
    return [len(el.proto.spec.encode()) for el in at.get("plotly_chart")]


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at
