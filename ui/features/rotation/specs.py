"""URL-bound controls of the rotation page (``pages/4_Rotation.py``)."""

from __future__ import annotations

from ui.plain.params import ChoiceParam, FloatParam, IntParam, tab_param

# The offset: negative and fractional values are part of the point.
K = FloatParam("rot_k", -1000.0, 1000.0, 3.0, step=1.0, label="rotation.k")
# Pair i (0 .. d_model/2 - 1; larger values are shown as the last pair, with a notice).
PAIR = IntParam("rot_pair", 0, 2047, 0, label="rotation.pair")
# Position p of the pair view: any position, inside the sequence or not.
POS = IntParam("rot_p", 0, 8191, 10, label="rotation.p")
LAYOUT = ChoiceParam("rot_layout", ("interleaved", "split"), "interleaved", label="rotation.layout")
# Positions of the least-squares fit: L spread-out positions or the run 0 .. L-1.
FIT = ChoiceParam("rot_fit", ("spread", "sequence"), "spread", label="rotation.fit")
# How many positions the fit uses: twice the m columns (W determined: the default), or L
# (at the default L = 50 < m = 128, underdetermined: one click away).
FIT_N = ChoiceParam("rot_fit_n", ("2m", "L"), "2m", label="rotation.fit_n")
# Seed 000's coefficient r_n in Phi_n(k): omega_{n-1} (its proof), one pair off, or 1.
COEF = ChoiceParam("rot_coef", ("omega", "omega_next", "one"), "omega", label="rotation.coef")

# Sections as lazy tabs; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = ("matrix", "check", "circle", "conventions", "dot", "fit")
TAB = tab_param("rot_tab", "rotation", TAB_NAMES)

SPECS = (K, PAIR, POS, LAYOUT, FIT, FIT_N, COEF, TAB)
