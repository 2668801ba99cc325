"""The current language and text lookup for pages."""

from __future__ import annotations

import streamlit as st

from ui.params import LANG
from ui.texts import TextError, text


def lang() -> str:
    value = st.session_state.get(LANG.key, LANG.default)
    return value if value in LANG.options else LANG.default


def t(key: str, **values) -> str:
    """Text ``key`` in the current language (``st.session_state['lang']``)."""
    return text(lang(), key, **values)


def say(error: ValueError) -> str:
    """An error's message in the current language (English for a plain ``ValueError``)."""
    if isinstance(error, TextError):
        return t(error.key, **error.fields)
    return str(error)
