"""The current language and text lookup for pages."""

from __future__ import annotations

import streamlit as st

from ui.plain.params import LANG, ParamError
from ui.plain.texts import TextError, text
from ui.shared.streamlit_internals import held


def lang() -> str:
    """The reader's language; from the language switch on, the value it held (issue #32)."""
    value = held(LANG.key)
    if value is None:
        value = st.session_state.get(LANG.key, LANG.default)
    return value if value in LANG.options else LANG.default


def t(key: str, **values) -> str:
    """Text ``key`` in the current language (``st.session_state['lang']``)."""
    return text(lang(), key, **values)


def say(error: ValueError) -> str:
    """An error's message in the current language (English for a plain ``ValueError``).

    The setting a ``ParamError`` is about is named by its label, not its URL key.
    """
    if isinstance(error, TextError):
        fields = dict(error.fields)
        if isinstance(error, ParamError):
            fields["name"] = error.spec.label_text(lang())
        return t(error.key, **fields)
    return str(error)
