"""URL-bound controls of the page "Binary counter vs sinusoid" (keys ``bin_*``)."""

from __future__ import annotations

from posenc.schemes import SCHEMES
from ui.plain.params import BoolParam, ChoiceParam, FloatParam, IntParam, tab_param

# Offset k of the consistency check and of the step-distance chart.
K = IntParam("bin_k", 1, 64, 1, label="binary.k")
# Bits of the counter (seed 001 uses 4: positions 0 .. 15).
BITS = IntParam("bin_bits", 2, 6, 4, label="binary.bits")
# "Far apart" in the d_model = 3 example: at least this many positions apart.
GAP = IntParam("bin_gap", 1, 1000, 10, label="binary.gap")
# The three sine frequencies of the d_model = 3 example (seed 003), high and low.
# High: 1/2^i as in the seed; low: ten times slower, same shape.
HIGH = (
    FloatParam(
        "bin_hi_w0", 0.0, 3.2, 1.0, label=("binary.high", "binary.w"), label_fields=(("i", 0),)
    ),
    FloatParam(
        "bin_hi_w1", 0.0, 3.2, 0.5, label=("binary.high", "binary.w"), label_fields=(("i", 1),)
    ),
    FloatParam(
        "bin_hi_w2", 0.0, 3.2, 0.25, label=("binary.high", "binary.w"), label_fields=(("i", 2),)
    ),
)
LOW = (
    FloatParam(
        "bin_lo_w0", 0.0, 3.2, 0.1, label=("binary.low", "binary.w"), label_fields=(("i", 0),)
    ),
    FloatParam(
        "bin_lo_w1", 0.0, 3.2, 0.05, label=("binary.low", "binary.w"), label_fields=(("i", 1),)
    ),
    FloatParam(
        "bin_lo_w2", 0.0, 3.2, 0.025, label=("binary.low", "binary.w"), label_fields=(("i", 2),)
    ),
)
# Seed 003's own slow frequencies, omega_i = 1 / 10000^(i / (d_model - 1)), at d_model = 3.
SEED003_LOW = {"bin_lo_w0": 1.0, "bin_lo_w1": 0.01, "bin_lo_w2": 0.0001}
# Evolution: binary and sin 1/2^j drawn on their informative columns only (at d = 128
# and L = 50 the full tables are ~95 % constant columns).
FOCUS = BoolParam("bin_focus", True, label="binary.focus")
# Scheme of the distance matrix.
SCHEME = ChoiceParam("bin_scheme", SCHEMES, "binary", label="binary.scheme")

# Sections as lazy tabs; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = ("evolution", "criteria", "counter", "steps", "loops", "distance")
TAB = tab_param("bin_tab", "binary", TAB_NAMES)

SPECS = (K, BITS, GAP, *HIGH, *LOW, FOCUS, SCHEME, TAB)
