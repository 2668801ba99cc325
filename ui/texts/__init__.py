"""All on-screen text, one folder per language, one module per page (plus ``common``).

Every module defines ``TEXTS: dict[str, str]`` with keys prefixed by the page
(``"heatmap.title"``). Formulas are not texts: they live in the pages, shared by both
languages. ``tests/test_i18n.py`` fails when a key exists in one language only.

Every text module is imported here, when this package is imported, and merged once
into a read-only catalogue per language. Sessions run in threads of one server
process: Python makes a second thread that imports ``ui.texts`` wait until this
module has finished, so no thread ever sees a half-imported text module. (Looking a
module up in ``sys.modules`` instead, as this package once did, can return one that
another session's thread is still executing: a fresh server opened by a room of
visitors showed "partially initialized module 'ui.texts.en.rope' has no attribute
'TEXTS'".) When a running server reloads an edited file, Streamlit evicts every
module of the app, this package included, so the next run merges the new texts.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType

LANGUAGES = ("en", "zh")


def _merge(lang: str) -> Mapping[str, str]:
    package = importlib.import_module(f"{__name__}.{lang}")
    merged: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        clash = merged.keys() & module.TEXTS.keys()
        if clash:
            raise KeyError(f"text keys defined twice in {lang}: {sorted(clash)}")
        merged.update(module.TEXTS)
    return MappingProxyType(merged)


_CATALOGUES: dict[str, Mapping[str, str]] = {lang: _merge(lang) for lang in LANGUAGES}


def catalogue(lang: str) -> Mapping[str, str]:
    """Every text of one language, merged from its modules (read-only: every session
    shares it)."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    return _CATALOGUES[lang]


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
