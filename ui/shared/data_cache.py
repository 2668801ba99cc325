"""``st.cache_data`` keyed by one digest of the arguments (issue #32).

``st.cache_data`` hashes each argument in Python, and looks up the name of each
positional one with ``inspect.signature``, on every call: a hit with six scalars cost
~230 us, with one 512 kB array ~900 us, and a page makes one or two such calls on every
rerun of every session. Here the arguments are keyed as the figure cache keys them
(:func:`ui.shared.figure_cache.digest`: a SHA-256 digest of their pickle, made in C), and
``st.cache_data`` sees that one short string::

    @data_cache.cache_data(max_entries=8)
    def table_grid(framework: str, length: int, ...) -> Grid: ...

Otherwise it is ``st.cache_data``: one cache per function, at most ``max_entries``
results, each call gets its own copy of the result, ``st.cache_data.clear()`` empties it,
and it works outside a script run too. An argument that cannot be pickled (a lock) runs
the function uncached; ``st.cache_data`` refused such an argument.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import streamlit as st

from ui.shared.figure_cache import Unkeyable, digest


def cache_data(*, max_entries: int) -> Callable[[Callable], Callable]:
    """The decorator: ``func`` cached by its arguments (module docstring)."""

    def wrap(func: Callable) -> Callable:
        def compute(key: str, _call: Callable):  # the digest is the only key Streamlit hashes
            return _call()

        # Streamlit keeps one cache per function, told apart by module and qualified name.
        compute.__module__ = func.__module__
        compute.__qualname__ = compute.__name__ = f"{func.__qualname__}__by_digest"
        store = st.cache_data(max_entries=max_entries, show_spinner=False)(compute)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            try:
                key = digest(args, kwargs)
            except Unkeyable:
                return func(*args, **kwargs)
            return store(key=key, _call=lambda: func(*args, **kwargs))

        wrapper.clear = store.clear
        return wrapper

    return wrap
