"""URL-bound controls of the Wavelength explorer, its two seed presets, strict list parsing."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ui.plain.params import (
    BASE,
    ChoiceParam,
    FloatParam,
    IntParam,
    ParamError,
    TextParam,
    interval,
    tab_param,
)
from ui.plain.safe_text import markdown_text

_SEPARATORS = re.compile(r"[,，]")
_INT = re.compile(r"[0-9]+")
_FLOAT = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class NumberListParam(TextParam):
    """Comma-separated numbers (``4, 5, 6, 7``) in a text box, parsed strictly.

    ``parse`` checks the text and returns it unchanged (the ``TextParam`` contract, so
    share links carry the text as typed); ``values`` returns the numbers as a tuple
    (duplicates dropped, order kept). Both raise ``ParamError`` (a ``ValueError``)
    naming the key and what is wrong. ASCII and full-width commas separate; spaces
    around a value are ignored.
    """

    integers: bool = True
    minimum: float = 0
    maximum: float = 1e9
    exclusive_minimum: bool = False
    max_count: int = 8
    allow_empty: bool = False

    def parse(self, raw: str) -> str:
        self.values(raw)
        return raw

    def values(self, raw: str) -> tuple:
        super().parse(raw)  # length cap
        tokens = [token.strip() for token in _SEPARATORS.split(raw)]
        if tokens == [""]:
            if self.allow_empty:
                return ()
            raise ParamError("list_empty", self)
        values: list = []
        for token in tokens:
            value = self._value(token)
            if value not in values:
                values.append(value)
        if len(values) > self.max_count:
            raise ParamError("list_long", self, max_count=self.max_count, count=len(values))
        return tuple(values)

    def extreme(self, which: str) -> str:
        """The smallest or largest valid text: for tests that walk every setting's ends."""
        if which == "min":
            return "" if self.allow_empty else _number(self.minimum, self.integers)
        top = self.maximum
        return ", ".join(_number(top - k, self.integers) for k in range(self.max_count))

    def _value(self, token: str):
        shown = markdown_text(token, 20) if token else "(empty)"  # goes into Markdown
        pattern = _INT if self.integers else _FLOAT
        if not pattern.fullmatch(token):
            code = "not_count" if self.integers else "not_number"
            raise ParamError(code, self, raw=shown)
        value = int(token) if self.integers else float(token)
        low_ok = value > self.minimum if self.exclusive_minimum else value >= self.minimum
        if not (math.isfinite(value) and low_ok and value <= self.maximum):
            raise ParamError("outside", self, raw=shown, **interval(self))
        return value


def _number(value: float, integers: bool) -> str:
    return str(int(value)) if integers else repr(float(value))


# Extra bases drawn next to the shared base, same limits as the shared base.
BASES = NumberListParam(
    "wl_bases",
    "100, 500000",
    max_chars=120,
    integers=False,
    minimum=BASE.minimum,
    maximum=BASE.maximum,
    exclusive_minimum=True,
    max_count=6,
    allow_empty=True,
    label="wavelengths.bases",
)
# Columns of the table drawn over positions (seed 003: dims 4-7); < d_model checked on the page.
DIMS = NumberListParam(
    "wl_dims", "4, 5, 6, 7", max_chars=120, maximum=4095, max_count=12, label="wavelengths.dims"
)
# Positions whose encoding vector is drawn across dimensions (seed 004: k = 0, 4, 8, 12).
POSITIONS = NumberListParam(
    "wl_positions",
    "0, 4, 8, 12",
    max_chars=120,
    maximum=1_000_000,
    max_count=8,
    label="wavelengths.positions",
)
VEC_MODE = ChoiceParam(
    "wl_vec_mode", ("sin_pairs", "row"), "sin_pairs", label="wavelengths.vec_mode"
)
VEC_COUNT = IntParam("wl_vec_count", 1, 2048, 100, label="wavelengths.vec_count")
CLOCK_P = IntParam("wl_clock_p", 0, 8192, 3, label="wavelengths.clock_p")
CLOCK_STEP = IntParam("wl_clock_step", 1, 1024, 1, label="wavelengths.clock_step")
DIALS = IntParam("wl_dials", 1, 48, 12, label="wavelengths.dials")
# Sine basics (seeds 003, 004): y = A sin(B x + C) + D.
SIN_A = FloatParam("wl_sin_a", 0.0, 3.0, 1.0, step=0.1, label="wavelengths.sin_a")
SIN_B = FloatParam("wl_sin_b", 0.25, 30.0, 1.0, step=0.01, label="wavelengths.sin_b")
SIN_C = FloatParam("wl_sin_c", -3.14, 3.14, 0.0, step=0.01, label="wavelengths.sin_c")
SIN_D = FloatParam("wl_sin_d", -2.0, 2.0, 0.0, step=0.1, label="wavelengths.sin_d")
SINE = (SIN_A, SIN_B, SIN_C, SIN_D)

# Sections as lazy tabs; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = ("lambdas", "curves", "vector", "clock", "forms", "basics")
TAB = tab_param("wl_tab", "wavelengths", TAB_NAMES)

SPECS = (BASES, DIMS, POSITIONS, VEC_MODE, VEC_COUNT, CLOCK_P, CLOCK_STEP, DIALS, *SINE, TAB)

# One click reproduces a seed's figure: session-state values set before the widgets run.
PRESETS = {
    "seed003": {"d_model": 20, "seq_len": 100, "base": 10000.0, "wl_dims": "4, 5, 6, 7"},
    "seed004": {
        "d_model": 512,
        "base": 10000.0,
        "wl_positions": "0, 4, 8, 12",
        "wl_vec_mode": "sin_pairs",
        "wl_vec_count": 100,
    },
    # Seed 003: "this sine repeats 4 times between 0 and 1": B = 8 pi, period 1/4.
    "sin_x": {"wl_sin_a": 1.0, "wl_sin_b": 1.0, "wl_sin_c": 0.0, "wl_sin_d": 0.0},
    "four_in_one": {"wl_sin_a": 1.0, "wl_sin_b": 8 * math.pi, "wl_sin_c": 0.0, "wl_sin_d": 0.0},
}
# The tab each seed preset opens: the one that draws the seed's figure.
PRESET_TABS = {"seed003": "curves", "seed004": "vector"}
