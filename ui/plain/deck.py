"""The story as an offline deck (issue #32): a step recorded at each stop of its controls.

A story step (``ui.features.story.view``) draws on a surface; :class:`Recorder` is the
surface of the deck: its controls return the values they are given (a stop, else the
control's default), and it keeps the step's two lines, figure and formula instead of
drawing them. :func:`record_step` runs a step once at its defaults, to learn which
controls it has, then once for each combination of their stops (:func:`stops`).
``ui.plain.deck_html`` writes the recordings as one HTML file.

No Streamlit here: the figure builders come in from the story (uncached, as they are).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ui.plain.params import BoolParam, FloatParam, IntParam
from ui.plain.style import presenter_fonts
from ui.plain.texts import text

# A control with more values than this gets this many stops, evenly spread, its default
# among them (a step may name its own stops instead); the step says it is sampled.
MAX_STOPS = 32


def stops(spec, chosen: Sequence | None = None) -> tuple[list, bool]:
    """The values the deck precomputes for ``spec``, and whether they sample its range.

    Every value when there are at most :data:`MAX_STOPS` (a toggle: off and on), else
    ``chosen`` (or :data:`MAX_STOPS` evenly spread), with the default always kept."""
    if isinstance(spec, BoolParam):
        return [False, True], False
    if isinstance(spec, IntParam):
        every = list(range(spec.minimum, spec.maximum + 1, spec.step))
    elif isinstance(spec, FloatParam):
        step = spec.step or (spec.maximum - spec.minimum) / (MAX_STOPS - 1)
        count = round((spec.maximum - spec.minimum) / step) + 1
        every = [round(spec.minimum + i * step, 10) for i in range(count)]
    else:
        raise TypeError(f"spec must be a BoolParam, IntParam or FloatParam, got {spec!r}")
    if chosen is None and len(every) <= MAX_STOPS:
        return every, False
    if chosen is None:
        picks = np.linspace(0, len(every) - 1, MAX_STOPS).round().astype(int)
        chosen = [every[i] for i in picks]
    values = sorted({*chosen, spec.default})
    outside = [v for v in values if v not in every]
    if outside:
        raise ValueError(f"stops of {spec.key} outside its range or step: {outside}")
    return values, len(values) < len(every)


@dataclass
class Control:
    """One control of a step: its spec, label and help in the deck's language, stops."""

    spec: object
    kind: str  # "slider" or "toggle"
    label: str
    help: str
    stops: list
    sampled: bool

    @property
    def default_index(self) -> int:
        return self.stops.index(self.spec.default)


@dataclass
class State:
    """What a step shows at one combination of its controls' stops."""

    values: dict[str, object]
    lead: str  # Markdown: two short lines, inline $math$
    figure: dict  # the figure as Plotly JSON (data, layout, frames)
    formula: str  # LaTeX
    deeper: object  # the step's go-deeper target (the story's ``Deeper``)


@dataclass
class Step:
    """One step of the story: title, notes, controls and a state per stop combination
    (in the order of ``itertools.product`` over the controls' stops)."""

    name: str
    title: str
    notes: str
    controls: list[Control]
    states: list[State] = field(default_factory=list)

    def state_at(self, indices: Sequence[int]) -> State:
        """The state at ``indices`` (one stop index per control), mixed radix."""
        flat = 0
        for control, i in zip(self.controls, indices, strict=True):
            flat = flat * len(control.stops) + i
        return self.states[flat]

    @property
    def default(self) -> State:
        return self.state_at([c.default_index for c in self.controls])


# What ``presenter_fonts`` reads besides sizes, margins and the presence of texts.
_KEPT_STRINGS = frozenset({"type", "xref", "yref", "xanchor", "yanchor"})
_MISSING = object()


def _shape(value, key: str = ""):
    """A figure's JSON as ``presenter_fonts`` sees it: numbers and structure kept, data
    arrays as "array", texts as whether there is one (but the kinds it tests)."""
    if isinstance(value, dict):
        return {k: _shape(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) for v in value):
        return [_shape(v) for v in value]
    if isinstance(value, (list, tuple, np.ndarray)):
        return "array"
    if isinstance(value, str) and key not in _KEPT_STRINGS:
        return bool(value)
    return value


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _changes(before, after, path: tuple = ()):
    """``(path, value)`` of every leaf ``after`` adds to or changes in ``before``."""
    if isinstance(after, dict) and isinstance(before, dict):
        for key, value in after.items():
            yield from _changes(before.get(key, _MISSING), value, (*path, key))
    elif (
        isinstance(after, list) and isinstance(before, list) and len(after) == len(before)
        and all(isinstance(v, dict) for v in after)
    ):  # fmt: skip
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            yield from _changes(b, a, (*path, i))
    elif before is _MISSING or not _same(before, after):
        yield path, after


def _put(tree, path: tuple, value) -> None:
    for key in path[:-1]:
        tree = tree[key] if isinstance(tree, list) else tree.setdefault(key, {})
    tree[path[-1]] = copy.deepcopy(value)


class ProjectorType:
    """``ui.plain.style.presenter_fonts`` for many figures of one step.

    A step's figures differ from stop to stop in their numbers and texts, rarely in what
    ``presenter_fonts`` reads (sizes, margins, axis types, which texts exist): it runs
    once per such shape, and its changes are replayed on the JSON of the figures of the
    same shape (the same result, a tenth of the time; ``tests/tools`` checks both)."""

    def __init__(self) -> None:
        self._changes: dict[str, list] = {}

    def apply(self, fig) -> dict:
        """``presenter_fonts(fig).to_plotly_json()``."""
        plain = fig.to_plotly_json()
        key = repr(_shape(plain))
        if key not in self._changes:
            after = presenter_fonts(fig).to_plotly_json()
            self._changes[key] = list(_changes(plain, after))
            return after
        for path, value in self._changes[key]:
            _put(plain, path, value)
        return plain


class Recorder:
    """The deck's surface (as ``ui.features.story.view.Live``): controls return the
    given values, the step's lines, figure and formula are kept.

    It draws as presenter mode does (the deck is for a projector): charts 1.5x as tall,
    panels stacked, projector type (``presenter_fonts``)."""

    def __init__(
        self, lang: str, values: Mapping[str, object], *, figs, wl_figs,
        home_heatmap: Callable, fonts: ProjectorType | None = None,
    ) -> None:  # fmt: skip
        self.lang, self.values = lang, dict(values)
        self.figs, self.wl_figs, self.home_heatmap = figs, wl_figs, home_heatmap
        self.asked: list[tuple[object, str, str]] = []  # (spec, kind, name), in order
        self.fonts = fonts or ProjectorType()
        self.lead_text = self.formula = ""
        self.figure: dict | None = None

    def t(self, key: str, **values) -> str:
        return text(self.lang, key, **values)

    def _value(self, spec, kind: str, name: str):
        self.asked.append((spec, kind, name))
        return self.values.get(spec.key, spec.default)

    def slider(self, spec, name: str, container=None):
        return self._value(spec, "slider", name)

    def toggle(self, spec, name: str) -> bool:
        return bool(self._value(spec, "toggle", name))

    def columns(self, n: int) -> list:
        return [None] * n

    def lead(self, first: str, second: str) -> None:
        self.lead_text = first + "\n\n" + second

    def plot(self, fig, name: str) -> None:
        self.figure = self.fonts.apply(fig)

    def latex(self, tex: str) -> None:
        self.formula = tex

    def chart_height(self, height: int) -> int:
        return int(height * 1.5)

    def phone(self) -> bool:
        return False

    def stacked(self) -> bool:
        return True


def record_step(
    name: str, draw: Callable, lang: str, *, chosen: Mapping[str, Sequence] | None = None,
    **builders,
) -> Step:  # fmt: skip
    """Step ``name`` (``draw(surface)`` returns its go-deeper target) at every
    combination of its controls' stops; ``chosen``: stops by control key, for controls
    whose every value would be too many; ``builders``: the figure builders."""
    fonts = ProjectorType()
    first = Recorder(lang, {}, fonts=fonts, **builders)
    draw(first)
    asked = []
    for spec, kind, label in first.asked:
        values, sampled = stops(spec, (chosen or {}).get(spec.key))
        asked.append(
            Control(spec, kind, text(lang, f"story.{label}"), text(lang, f"story.{label}_help"),
                    values, sampled)
        )  # fmt: skip
    step = Step(name, text(lang, f"story.{name}_title"), text(lang, f"story.{name}_notes"),
                asked)  # fmt: skip
    for combination in itertools.product(*(c.stops for c in asked)):
        values = {c.spec.key: v for c, v in zip(asked, combination, strict=True)}
        surface = Recorder(lang, values, fonts=fonts, **builders)
        deeper = draw(surface)
        step.states.append(
            State(values, surface.lead_text, surface.figure, surface.formula, deeper)
        )
    return step
