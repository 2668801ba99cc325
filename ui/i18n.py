"""The current language and text lookup for pages."""

from __future__ import annotations

import streamlit as st

from ui.params import LANG, ParamError
from ui.specs import setting_label
from ui.texts import TextError, text


def lang() -> str:
    value = st.session_state.get(LANG.key, LANG.default)
    return value if value in LANG.options else LANG.default


def t(key: str, **values) -> str:
    """Text ``key`` in the current language (``st.session_state['lang']``)."""
    return text(lang(), key, **values)


def say(error: ValueError) -> str:
    """An error's message in the current language (English for a plain ``ValueError``).

    A setting named in the error (field ``name``: its URL key) is named by its label.
    """
    if isinstance(error, TextError):
        fields = dict(error.fields)
        if isinstance(error, ParamError) and "name" in fields:
            fields["name"] = setting_label(lang(), fields["name"])
        return t(error.key, **fields)
    return str(error)
