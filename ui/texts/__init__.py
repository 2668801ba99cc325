"""All on-screen text, one folder per language, one module per page (plus ``common``).

Every module defines ``TEXTS: dict[str, str]`` with keys prefixed by the page
(``"heatmap.title"``). Formulas are not texts: they live in the pages, shared by both
languages. ``tests/test_i18n.py`` fails when a key exists in one language only.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from functools import cache, lru_cache
from types import ModuleType

LANGUAGES = ("en", "zh")


@cache
def _module_names(lang: str) -> tuple[str, ...]:
    package = importlib.import_module(f"ui.texts.{lang}")
    infos = sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
    return tuple(f"ui.texts.{lang}.{info.name}" for info in infos)


def catalogue(lang: str) -> dict[str, str]:
    """Every text of one language, merged from its modules.

    Cached per set of module objects, not per language: when a running server reloads
    an edited text module (Streamlit drops it from ``sys.modules``), the next call
    merges the new one instead of serving the old texts.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    names = _module_names(lang)
    return _merged(lang, tuple(sys.modules.get(n) or importlib.import_module(n) for n in names))


@lru_cache(maxsize=len(LANGUAGES) * 2)
def _merged(lang: str, modules: tuple[ModuleType, ...]) -> dict[str, str]:
    merged: dict[str, str] = {}
    for module in modules:
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
