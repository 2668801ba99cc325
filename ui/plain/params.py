"""One source of truth for every URL-bound control: key, range, default, parsing.

A spec parses the raw query-parameter text and says what is wrong with it, so a URL
anyone can edit never reaches a computation unchecked. Streamlit imports stay out.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from ui.plain.safe_text import markdown_text
from ui.plain.texts import LANGUAGES, TextError, text


class ParamError(TextError):
    """A value that breaks its spec (text ``param.<code>``); ``spec`` is the control, so
    a notice can name it by its label (``ui.shared.i18n.say``); ``str()`` names its key."""

    def __init__(self, code: str, spec: Spec, **fields):
        self.code, self.spec = code, spec
        super().__init__(f"param.{code}", name=spec.key, **fields)


@dataclass(frozen=True)
class Spec:
    """What every URL-bound control has: the query parameter ``key`` it is kept under, and
    its ``label`` on screen: a text key, or several joined by a space, formatted with
    ``label_fields`` (notices name a setting by its label, never by its key)."""

    key: str
    label: str | tuple[str, ...] = field(default="", kw_only=True)
    label_fields: tuple[tuple[str, int], ...] = field(default=(), kw_only=True)

    def label_text(self, lang: str) -> str:
        """The label in ``lang`` (the key when the spec has none)."""
        keys = (self.label,) if isinstance(self.label, str) else self.label
        if not any(keys):
            return self.key
        return " ".join(text(lang, key, **dict(self.label_fields)) for key in keys)


@dataclass(frozen=True)
class IntParam(Spec):
    minimum: int
    maximum: int
    default: int
    step: int = 1

    def parse(self, raw: str) -> int:
        try:
            value = float(raw)
        except ValueError:
            raise ParamError("not_number", self, raw=_short(raw)) from None
        if math.isinf(value):  # a number too large for a float: 400 digits, 1e400
            raise ParamError("outside", self, raw=_short(raw), **interval(self))
        if math.isnan(value) or not value.is_integer():
            raise ParamError("not_whole", self, raw=_short(raw))
        value = int(value)
        if not self.minimum <= value <= self.maximum:
            raise ParamError("outside", self, raw=value, **interval(self))
        if (value - self.minimum) % self.step:
            raise ParamError("not_step", self, raw=value, step=self.step)
        return value


@dataclass(frozen=True)
class FloatParam(Spec):
    minimum: float
    maximum: float
    default: float
    step: float | None = None
    exclusive_minimum: bool = False

    def parse(self, raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise ParamError("not_number", self, raw=_short(raw)) from None
        low_ok = value > self.minimum if self.exclusive_minimum else value >= self.minimum
        if not math.isfinite(value) or not low_ok or value > self.maximum:
            raise ParamError("outside", self, raw=_short(raw), **interval(self))
        return value


@dataclass(frozen=True)
class ChoiceParam(Spec):
    options: tuple[str, ...]
    default: str

    def parse(self, raw: str) -> str:
        if raw not in self.options:
            raise ParamError("not_option", self, raw=_short(raw), options=", ".join(self.options))
        return raw


@dataclass(frozen=True)
class BoolParam(Spec):
    default: bool = False

    def parse(self, raw: str) -> bool:
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise ParamError("not_bool", self, raw=_short(raw))


@dataclass(frozen=True)
class TextParam(Spec):
    default: str
    max_chars: int = 200

    def parse(self, raw: str) -> str:
        if len(raw) > self.max_chars:
            raise ParamError("too_long", self, max_chars=self.max_chars)
        return raw


def _short(raw: str, limit: int = 40) -> str:
    """A rejected value as it goes into a notice (Markdown): one line, cut, escaped."""
    return markdown_text(raw, limit)


def base_limits(spec) -> dict[str, str]:
    """``low`` and ``high`` of a base's range for its help text: ``1`` and ``1,000,000,000``."""
    return {"low": f"{spec.minimum:g}", "high": f"{spec.maximum:,.0f}"}


def interval(spec) -> dict[str, str]:
    """``low`` and ``high`` of a float range in interval notation: ``(1, 1e+09]``."""
    bracket = "(" if getattr(spec, "exclusive_minimum", False) else "["
    return {"low": f"{bracket}{spec.minimum:g}", "high": f"{spec.maximum:g}]"}


# The shared controls (issue #2): exactly these keys, limits defined once.
SEQ_LEN = IntParam("seq_len", 1, 8192, 50, label="common.seq_len")
D_MODEL = IntParam("d_model", 2, 4096, 128, step=2, label="common.d_model")
BASE = FloatParam("base", 1.0, 1e9, 10000.0, exclusive_minimum=True, label="common.base")
SHARED = (SEQ_LEN, D_MODEL, BASE)


@functools.cache  # a few specs; asked by every sidebar slider on every rerun
def nice_values(spec: IntParam, *, every_up_to: int = 16) -> tuple[int, ...]:
    """Stops of the sidebar's coarse slider for ``spec``: every valid value up to
    ``every_up_to``, then powers of 2, 3 * 2^k and 1, 2, 5 * 10^k (the seeds' 50, 100,
    512). A drag of a few pixels moves one stop (a 1 .. 8192 slider moved 100 positions
    per 3 px); the number box beside it takes any valid value."""
    candidates = set(range(spec.minimum, every_up_to + 1))
    for k in range(1, 14):
        candidates |= {2**k, 3 * 2**k}
    for e in range(0, 5):
        candidates |= {10**e, 2 * 10**e, 5 * 10**e}
    return tuple(
        sorted(
            v
            for v in candidates
            if spec.minimum <= v <= spec.maximum and (v - spec.minimum) % spec.step == 0
        )
    )


LANG = ChoiceParam("lang", ("en", "zh"), "en", label="common.language")
PRESENT = BoolParam("present", False, label="common.present")
# Keys carried from page to page by the menu links.
CARRIED = (*SHARED, LANG, PRESENT)


def tab_param(key: str, page: str, names: tuple[str, ...]) -> ChoiceParam:
    """The open tab of a page with lazy tabs, kept in the URL under its name (``names``:
    short language-independent codes such as ``fit``); the first tab is the default.

    Options: the labels ``text(lang, f"{page}.tab_{name}")`` of every language in
    turn, then the names, each group in tab order (``options.index(x) % len(names)`` is
    the tab): links from before tabs had codes, which held a label, still open.
    """
    labels = tuple(text(lang, f"{page}.tab_{name}") for lang in LANGUAGES for name in names)
    return ChoiceParam(key, (*labels, *names), labels[0], label="common.open_tab")
