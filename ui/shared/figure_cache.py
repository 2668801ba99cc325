"""Built figures cached by their inputs, for all sessions (issue #23).

A workshop room asks for the same view with the same settings dozens of times a minute.
Building a Plotly figure validates every property (a dial chart with its animation
frames: ~90 ms of CPU); rebuilding it from its JSON without validation costs a fifth of
that, the JSON of a view is built once per process. Use as a decorator on a figure
builder (``ui.figures``: arrays -> ``go.Figure``)::

    @figure_cache.cached
    def clock_figure(pairs, wavelengths, ..., tr, *, stacked=False): ...

The key is the builder, the reader's language (builders take ``tr``, the translation
function ``ui.shared.i18n.t``, which reads it) and the arguments (arrays by content, as
``st.cache_data`` hashes them; functions by name). Each call returns a new figure, so
code that changes it afterwards (``controls.fit_phone``, presenter fonts) changes only
its own copy. Outside a script run (unit tests, benches) the builder runs as it is.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseFigure
from streamlit.runtime.caching.cache_errors import UnhashableParamError
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from ui.shared.i18n import lang

# Memory budget: a figure's JSON is < 1 MB (house rule) and most are 20-80 kB; 128 of
# them stay under ~10 MB in practice, 128 MB at the very worst.
MAX_ENTRIES = 128


@st.cache_data(max_entries=MAX_ENTRIES, show_spinner=False)
def _spec(name: str, language: str, args: tuple, kwargs: dict, _build: Callable) -> str:
    """The JSON of ``_build()``; ``name``, ``language``, ``args`` and ``kwargs`` are the
    key (``_build`` is not hashed: its arguments are)."""
    return _build().to_json(validate=False)


def _key(value):
    """``value`` as part of a cache key: functions (``tr``) by their name."""
    if callable(value) and not isinstance(value, type):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', value)}"
    return value


def _arrays(value):
    """Plotly's typed arrays (``{"dtype", "bdata"[, "shape"]}``) back to numpy arrays, as
    the builder had them (``len(fig.data[0].x)`` and JSON stay as they were)."""
    if isinstance(value, dict):
        if "bdata" in value and "dtype" in value:
            array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
            if "shape" in value:
                array = array.reshape([int(n) for n in str(value["shape"]).split(",")])
            return array.copy()  # writable, as the builder's
        return {k: _arrays(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_arrays(v) for v in value]
    return value


# The one decoder of Plotly's typed arrays: the tests read drawn charts back with it.
decode_arrays = _arrays


def from_spec(spec: str) -> go.Figure:
    """A new figure from JSON made by a figure (already valid: not validated again)."""
    return go.Figure(_arrays(json.loads(spec)), skip_invalid=False, _validate=False)


def cached(builder: Callable[..., go.Figure]) -> Callable[..., go.Figure]:
    """``builder``, with its figures cached by arguments and language (module docstring)."""
    name = f"{builder.__module__}.{builder.__qualname__}"

    @functools.wraps(builder)
    def wrapper(*args, **kwargs):
        given = (*args, *kwargs.values())
        if get_script_run_ctx(suppress_warning=True) is None or any(
            isinstance(a, BaseFigure)
            for a in given  # changes a figure it is given
        ):
            return builder(*args, **kwargs)
        try:
            spec = _spec(
                name,
                lang(),
                tuple(_key(a) for a in args),
                {k: _key(v) for k, v in kwargs.items()},
                lambda: builder(*args, **kwargs),
            )
        except UnhashableParamError:  # an argument st.cache_data cannot hash: build it
            return builder(*args, **kwargs)
        return from_spec(spec)

    wrapper.uncached = builder
    return wrapper


class CachedModule:
    """A figure module whose builders (functions annotated ``-> go.Figure``) are
    :func:`cached`; its other names pass through: ``figs = CachedModule(story_figures)``."""

    def __init__(self, module):
        self._module = module
        self._wrapped: dict[str, Callable] = {}

    def __getattr__(self, name: str):
        value = getattr(self._module, name)
        returns = getattr(value, "__annotations__", {}).get("return") if callable(value) else None
        if returns not in ("go.Figure", go.Figure):
            return value
        if getattr(self._wrapped.get(name), "uncached", None) is not value:  # new or patched
            self._wrapped[name] = cached(value)
        return self._wrapped[name]
