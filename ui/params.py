"""One source of truth for every URL-bound control: key, range, default, parsing.

A spec parses the raw query-parameter text and says what is wrong with it, so a URL
anyone can edit never reaches a computation unchecked. Streamlit imports stay out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ui.safe_text import markdown_text
from ui.texts import TextError


class ParamError(TextError):
    """A value that breaks its spec (text ``param.<code>``)."""

    def __init__(self, code: str, **fields):
        self.code = code
        super().__init__(f"param.{code}", **fields)


@dataclass(frozen=True)
class IntParam:
    key: str
    minimum: int
    maximum: int
    default: int
    step: int = 1

    def parse(self, raw: str) -> int:
        try:
            value = float(raw)
        except ValueError:
            raise ParamError("not_number", name=self.key, raw=_short(raw)) from None
        if math.isinf(value):  # a number too large for a float: 400 digits, 1e400
            raise ParamError("outside", name=self.key, raw=_short(raw), **interval(self))
        if math.isnan(value) or not value.is_integer():
            raise ParamError("not_whole", name=self.key, raw=_short(raw))
        value = int(value)
        if not self.minimum <= value <= self.maximum:
            raise ParamError("outside", name=self.key, raw=value, **interval(self))
        if (value - self.minimum) % self.step:
            raise ParamError("not_step", name=self.key, raw=value, step=self.step)
        return value


@dataclass(frozen=True)
class FloatParam:
    key: str
    minimum: float
    maximum: float
    default: float
    step: float | None = None
    exclusive_minimum: bool = False

    def parse(self, raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise ParamError("not_number", name=self.key, raw=_short(raw)) from None
        low_ok = value > self.minimum if self.exclusive_minimum else value >= self.minimum
        if not math.isfinite(value) or not low_ok or value > self.maximum:
            raise ParamError("outside", name=self.key, raw=_short(raw), **interval(self))
        return value


@dataclass(frozen=True)
class ChoiceParam:
    key: str
    options: tuple[str, ...]
    default: str

    def parse(self, raw: str) -> str:
        if raw not in self.options:
            raise ParamError(
                "not_option", name=self.key, raw=_short(raw), options=", ".join(self.options)
            )
        return raw


@dataclass(frozen=True)
class BoolParam:
    key: str
    default: bool = False

    def parse(self, raw: str) -> bool:
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise ParamError("not_bool", name=self.key, raw=_short(raw))


@dataclass(frozen=True)
class TextParam:
    key: str
    default: str
    max_chars: int = 200

    def parse(self, raw: str) -> str:
        if len(raw) > self.max_chars:
            raise ParamError("too_long", name=self.key, max_chars=self.max_chars)
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
SEQ_LEN = IntParam("seq_len", 1, 8192, 50)
D_MODEL = IntParam("d_model", 2, 4096, 128, step=2)
BASE = FloatParam("base", 1.0, 1e9, 10000.0, exclusive_minimum=True)
SHARED = (SEQ_LEN, D_MODEL, BASE)


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


LANG = ChoiceParam("lang", ("en", "zh"), "en")
PRESENT = BoolParam("present", False)
# Keys carried from page to page by the menu links.
CARRIED = (*SHARED, LANG, PRESENT)
