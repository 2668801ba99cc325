"""Built figures cached by their inputs, for all sessions (issue #23).

A workshop room asks for the same view with the same settings dozens of times a minute.
Building a Plotly figure validates every property (a dial chart with its animation
frames: ~90 ms of CPU); rebuilding it from its JSON without validation costs a fifth of
that, the JSON of a view is built once per process.

One way to get a figure, everywhere (issue 30): a module that draws takes its figure
module's builders through :func:`builders`, once, at import::

    from ui.features.rope import figures
    from ui.shared import figure_cache

    figs = figure_cache.builders(figures)  # module level: never in render() or a tab
    ...
    controls.plot(figs.decay_figure(distances, curves, ...), "rope_decay_chart")

A builder is a public function whose return annotation resolves (``typing.get_type_hints``)
to ``go.Figure``, or to a tuple whose first item is one (``tuple[go.Figure, Grid]``: the
figure and what the page needs besides, cached together); any other return type that
holds a figure is refused at import. The module's other names (constants, helpers that
return numbers or LaTeX) pass through as they are.

The key is the builder, the reader's language (texts may be translated inside) and the
arguments (arrays by content; functions by name: :func:`digest`). Each
call returns a new figure, so code that changes it afterwards (``controls.fit_phone``,
presenter fonts) changes only its own copy, and marks it (:func:`came_through`):
``tests/sweeps/test_figures_cached.py`` runs every page and tab and fails on a drawn
figure without the mark. A builder given a figure (it changes that figure: ``animate_pair``)
runs as it is, as does every builder outside a script run (unit tests, benches) or with
an argument that cannot be pickled (its figure is then not marked).

Every figure a builder returns here has the margins the browser would grow it to
(``ui.plain.style.settle_margins``): Plotly then draws it once, not twice. ``uncached``
(the builder itself, which the offline deck uses: no Streamlit chart theme there) keeps
the builder's own margins.

A cache hit builds no Plotly object until code reads or changes the figure (issue #32):
the figure returned is a :class:`CachedFigure`, which holds the cached JSON and becomes
an ordinary ``go.Figure`` (rebuilt from that JSON, as :func:`from_spec` does) the first
time anything of it is used but :meth:`CachedFigure.to_dict`. A figure only drawn (on a
desk, outside presenter mode: ``controls.fit_phone`` leaves it alone) goes to
``st.plotly_chart`` as the cached JSON: rebuilding the figure, copying it and
turning its arrays back into base64 took 2-7 ms of a 15-35 ms rerun, on every rerun of
every session; inside :func:`drawing` the JSON is not even parsed (the layout's height
and width, kept with it, are all ``st.plotly_chart`` reads of the figure).
``tests/shared/test_figure_cache.py`` counts the figures built and the parses.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import inspect
import json
import pickle
import threading
import typing
from collections.abc import Callable, Iterator

import numpy as np
import orjson
import plotly.graph_objects as go
import plotly.io
import streamlit as st
from plotly.basedatatypes import BaseFigure

from ui.plain.style import settle_margins
from ui.shared.i18n import lang
from ui.shared.streamlit_internals import in_script_run

# Memory budget: a figure's JSON is < 1 MB (house rule) and most are 20-80 kB; 128 of
# them stay under ~10 MB in practice, 128 MB at the very worst.
MAX_ENTRIES = 128


@st.cache_data(max_entries=MAX_ENTRIES, show_spinner=False)
def _spec(name: str, language: str, arguments: str, _build: Callable) -> tuple:
    """``(JSON of the figure, its size: :func:`size_of`, *the rest)`` of what ``_build()``
    returns (a figure, or a tuple whose first item is one); ``name``, ``language`` and
    ``arguments`` (the digest of the builder's arguments: :func:`digest`) are the key
    (``_build`` is not hashed).
    Called with keywords only: Streamlit looks up the name of each positional argument
    with ``inspect.signature`` on every call."""
    built = _build()
    fig, *rest = built if isinstance(built, tuple) else (built,)
    return (fig.to_json(validate=False), size_of(fig), *rest)


def _key(value):
    """``value`` as part of a cache key: a function (an argument that is code) by its name."""
    if callable(value) and not isinstance(value, type):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', value)}"
    return value


class Unkeyable(TypeError):
    """An argument :func:`digest` cannot turn into bytes (its figure is built uncached)."""


def digest(args: tuple, kwargs: dict) -> str:
    """A builder's arguments as one short key: the SHA-256 digest of their pickle (160
    bits of it, in hex), with functions by name (:func:`_key`). Different arguments give
    different bytes (arrays by dtype, shape, memory order and content; dicts in their
    order; ``2`` and ``2.0`` apart), so a figure is never shared by two views that differ;
    equal ones share it.

    ``st.cache_data`` hashed the arguments itself before (issue #32): in pure Python,
    item by item, ~1 ms a rerun for a grid and a dict of labels; the pickle is built in C.
    An array's memory is hashed where it lies (pickle protocol 5 hands it over out of
    band) and SHA-256 runs on the CPU's hash instructions where it has them: RoPE's
    256 x 256 float32 score grid and its labels, on every rerun, 0.18 ms instead of
    0.31 ms (a float64 grid of that size: 0.3 ms instead of 0.9 ms).
    """
    buffers: list[pickle.PickleBuffer] = []
    try:
        data = pickle.dumps(
            (tuple(_key(a) for a in args), {k: _key(v) for k, v in kwargs.items()}),
            protocol=5,
            buffer_callback=buffers.append,  # returns None: each buffer out of band
        )
        hashed = hashlib.sha256(data)
        for buffer in buffers:  # in order; their sizes are in the pickle
            hashed.update(buffer.raw())
    except (pickle.PicklingError, TypeError, AttributeError, BufferError) as error:
        raise Unkeyable(str(error)) from error
    return hashed.hexdigest()[:40]


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


class CachedFigure(go.Figure):
    """A figure from the cache, built from its JSON when first used (module docstring).

    Until then it holds only the JSON (and :data:`MARK`, and its size: :func:`lazy_figure`);
    :meth:`to_dict` (which ``st.plotly_chart``, ``to_json`` and ``to_plotly_json`` call)
    parses that JSON, a new dict each call (:meth:`trace_metas` reads it too), except
    for ``st.plotly_chart`` inside :func:`drawing`, which gets the layout's size only.
    Any other use (reading ``layout``, ``update_layout``, ``data``, printing, copying)
    first builds the figure in place, exactly as :func:`from_spec` does, and from then on
    it is that figure: Plotly's own attributes are missing until the build, so their
    first lookup lands in :meth:`__getattr__`, which builds.
    """

    def __init__(self, spec=None, *args, **kwargs):
        if not isinstance(spec, str) or args or kwargs:  # a copy (pickle, deepcopy)
            super().__init__(spec, *args, **kwargs)
            return
        self.__dict__["_cached_json"] = spec  # no super().__init__(): the build, deferred

    def __getattr__(self, name: str):
        spec = self.__dict__.get("_cached_json")
        if spec is None:  # built or being built: a name the figure has not (yet)
            raise AttributeError(name)
        del self.__dict__["_cached_json"]
        go.Figure.__init__(self, _arrays(json.loads(spec)), skip_invalid=False, _validate=False)
        return getattr(self, name)

    def cached_json(self) -> str | None:
        """The cached JSON while the figure is not built (nothing changed it), else None."""
        return self.__dict__.get("_cached_json")

    def built(self) -> bool:
        """Whether the figure was built (something used it but :meth:`to_dict`)."""
        return "_cached_json" not in self.__dict__

    def to_dict(self):
        spec = self.__dict__.get("_cached_json")
        if spec is None:
            return super().to_dict()
        if getattr(_drawing, "figure", None) is not self:
            return orjson.loads(spec)
        size = self.__dict__.get("_cached_size")
        if size is None:
            parsed = orjson.loads(spec)
        else:
            # What st.plotly_chart reads of this dict: the layout's height and width
            # (for its "content" size); it hands the dict to to_json, which sends the
            # cached JSON (:func:`_to_json`). Parsing it took ~0.1-0.4 ms (issue #32).
            height, width = size
            pairs = (("height", height), ("width", width))
            parsed = {"layout": {k: v for k, v in pairs if v is not None}}
        _drawing.parsed = (parsed, spec)
        return parsed

    def trace_metas(self) -> list:
        """Each trace's ``meta`` (None where unset), read from the JSON while the figure
        is not built (``ui.plain.pick.picking_curves``: a chart a click can pick)."""
        spec = self.__dict__.get("_cached_json")
        if spec is None:
            return [trace.meta for trace in self.data]
        return [trace.get("meta") for trace in orjson.loads(spec)["data"]]


def size_of(fig) -> tuple:
    """``(layout height, layout width)`` of a built figure, None where unset: what
    ``st.plotly_chart`` reads of a figure besides its JSON."""
    return (fig.layout.height, fig.layout.width)


def lazy_figure(spec: str, size: tuple | None) -> CachedFigure:
    """A :class:`CachedFigure` of ``spec`` (marked as the cache's); ``size``
    (:func:`size_of` the figure ``spec`` was written from) lets ``st.plotly_chart`` draw
    it without parsing the JSON."""
    fig = CachedFigure(spec)
    fig.__dict__["_cached_size"] = size
    setattr(fig, MARK, True)
    return fig


# The hand-over of a cached figure's JSON to ``st.plotly_chart`` (issue #32): per thread.
_drawing = threading.local()
_plotly_to_json = plotly.io.to_json


def _to_json(fig, validate=True, pretty=False, remove_uids=True, engine=None):
    """``plotly.io.to_json``, which hands back the cached JSON for the dict that
    :meth:`CachedFigure.to_dict` just parsed from it inside :func:`drawing`, where
    ``st.plotly_chart`` turns its figure into that dict and the dict straight back into
    JSON. That JSON is what Plotly wrote for the built figure with these same options
    (``_spec``: ``to_json(validate=False)``), so the bytes are the same; writing it again
    (encode, then escape ``<``, ``>``, ``/`` in Python) took 2 ms of RoPE's rerun.
    Any other call, or other options, runs Plotly's own."""
    parsed = getattr(_drawing, "parsed", None)
    if parsed is not None and fig is parsed[0]:
        _drawing.parsed = None
        if not pretty and remove_uids and engine in (None, "auto", "orjson"):
            return parsed[1]
    return _plotly_to_json(fig, validate, pretty, remove_uids, engine)


plotly.io.to_json = _to_json


@contextlib.contextmanager
def drawing(fig) -> Iterator[None]:
    """Inside: ``st.plotly_chart(fig)`` sends a :class:`CachedFigure`'s cached JSON as
    it is (:func:`_to_json`); any other figure as Plotly writes it."""
    _drawing.figure, _drawing.parsed = fig, None
    try:
        yield
    finally:
        _drawing.figure = _drawing.parsed = None


# Set on each figure the cache returns: the sweep test checks every drawn figure has it.
MARK = "_from_figure_cache"


def came_through(fig) -> bool:
    """Whether ``fig`` was returned by a cached builder (or is one it returned, changed)."""
    return getattr(fig, MARK, False)


def _is_figure(hint) -> bool:
    return isinstance(hint, type) and issubclass(hint, BaseFigure)


def _holds_figure(hint) -> bool:
    return _is_figure(hint) or any(_holds_figure(arg) for arg in typing.get_args(hint))


def returns(function: Callable) -> str | None:
    """``"figure"`` when ``function`` returns a figure, ``"tuple"`` when a tuple whose
    first item is one (and no other), None otherwise; by its resolved return annotation.
    TypeError for a figure returned in any other shape (the cache could not rebuild it)."""
    try:
        hint = typing.get_type_hints(function).get("return")
    except Exception as error:  # an annotation that does not resolve: say which
        raise TypeError(f"{function.__qualname__}: return annotation unresolved") from error
    if _is_figure(hint):
        return "figure"
    items = typing.get_args(hint) if typing.get_origin(hint) is tuple else ()
    if items and _is_figure(items[0]) and not any(_holds_figure(i) for i in items[1:]):
        return "tuple"
    if _holds_figure(hint):
        raise TypeError(
            f"{function.__module__}.{function.__qualname__} returns {hint}: the figure cache "
            "takes go.Figure or tuple[go.Figure, ...] with the figure first"
        )
    return None


def cached(builder: Callable) -> Callable:
    """``builder``, with its figures cached by arguments and language (module docstring)."""
    name = f"{builder.__module__}.{builder.__qualname__}"
    shape = returns(builder)
    if shape is None:
        raise TypeError(f"{name} returns no figure: nothing to cache")

    def build(*args, **kwargs):
        built = builder(*args, **kwargs)
        settle_margins(built[0] if isinstance(built, tuple) else built)
        return built

    @functools.wraps(builder)
    def wrapper(*args, **kwargs):
        if not in_script_run() or any(
            isinstance(a, BaseFigure)
            for a in (*args, *kwargs.values())  # changes a figure it is given
        ):
            return build(*args, **kwargs)
        try:
            arguments = digest(args, kwargs)
        except Unkeyable:  # an argument that cannot be pickled (a lock, a generator)
            return build(*args, **kwargs)
        spec, size, *rest = _spec(
            name=name,
            language=lang(),
            arguments=arguments,
            _build=lambda: build(*args, **kwargs),
        )
        fig = lazy_figure(spec, size)
        return (fig, *rest) if shape == "tuple" else fig

    wrapper.uncached = builder
    return wrapper


class Builders:
    """A figure module with its builders cached (:func:`cached`, each wrapped once, when
    this is made) and its other names passed through; made by :func:`builders`."""

    def __init__(self, module):
        self._source = module
        for name, value in vars(module).items():
            if (
                not name.startswith("_")
                and inspect.isfunction(value)
                and value.__module__.split(".")[0] == "ui"  # the house's, not plotly's
                and returns(value) is not None
            ):
                setattr(self, name, cached(value))

    def __getattr__(self, name: str):  # only names not set above: constants, helpers
        if name == "_source":
            raise AttributeError(name)
        return getattr(self._source, name)

    def __repr__(self) -> str:
        return f"figure_cache.builders({self._source.__name__})"


def builders(module) -> Builders:
    """``module``'s figure builders, cached for all sessions; its other names as they are.
    Call once per module, at import: ``figs = figure_cache.builders(figures)``."""
    return Builders(module)
