"""All on-screen text, one folder per language, one module per page (plus ``common``).

Every module defines ``TEXTS: dict[str, str]`` with keys prefixed by the page
(``"heatmap.title"``). Formulas are not texts: they live in the pages, shared by both
languages. ``tests/test_i18n.py`` fails when a key exists in one language only.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

LANGUAGES = ("en", "zh")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every text of one language, merged from its modules."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    package = importlib.import_module(f"ui.texts.{lang}")
    merged: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"ui.texts.{lang}.{info.name}")
        clash = merged.keys() & module.TEXTS.keys()
        if clash:
            raise KeyError(f"text keys defined twice in {lang}: {sorted(clash)}")
        merged.update(module.TEXTS)
    return merged


def text(lang: str, key: str, **values) -> str:
    """The text ``key`` in ``lang``, formatted with ``values``."""
    template = catalogue(lang)[key]
    return template.format(**values) if values else template


class TextError(ValueError):
    """A ``ValueError`` whose message is a text: ``str()`` is English; ``key`` and
    ``fields`` let the UI say it in the reader's language (``ui.i18n.say``)."""

    def __init__(self, key: str, **fields):
        self.key, self.fields = key, fields
        super().__init__(text("en", key, **fields))
