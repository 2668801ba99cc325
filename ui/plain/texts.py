"""All on-screen text: ``texts_en.py`` and ``texts_zh.py`` in each page folder
(``ui/features/<page>/``) and in ``ui/plain/`` (the texts the shared machinery shows).

Every such module defines ``TEXTS: dict[str, str]`` with keys prefixed by the page
(``"heatmap.title"``; shared texts ``common.``, ``menu.``, ``param.``). Formulas are not
texts: they live in the pages, shared by both languages. ``tests/house`` fails when a key
exists in one language only.

Every text module is imported here, when this module is imported, and merged once into
a read-only catalogue per language; the page folders are found on disk (as Django finds
each app's ``locale/``), so this shared module names no page. Sessions run in threads of
one server process: Python makes a second thread that imports ``ui.plain.texts`` wait
until this module has finished, so no thread ever sees a half-imported text module.
(Looking a module up in ``sys.modules`` instead, as this package once did, can return one
that another session's thread is still executing: a fresh server opened by a room of
visitors showed "partially initialized module ... has no attribute 'TEXTS'".) When a
running server reloads an edited file, Streamlit evicts every module of the app, this
one included, so the next run merges the new texts.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

LANGUAGES = ("en", "zh")


FEATURES = Path(__file__).resolve().parents[1] / "features"


def text_modules(lang: str) -> list[str]:
    """The modules holding the texts of ``lang``: the shared ones, then each page
    folder's, in name order."""
    pages = sorted(p.parent.name for p in FEATURES.glob(f"*/texts_{lang}.py"))
    return [f"ui.plain.texts_{lang}", *(f"ui.features.{page}.texts_{lang}" for page in pages)]


def _merge(lang: str) -> Mapping[str, str]:
    merged: dict[str, str] = {}
    for name in text_modules(lang):
        module = importlib.import_module(name)
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
    ``fields`` let the UI say it in the reader's language (``ui.shared.i18n.say``)."""

    def __init__(self, key: str, **fields):
        self.key, self.fields = key, fields
        super().__init__(text("en", key, **fields))
