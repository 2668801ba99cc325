"""URL-bound controls of the "Start here" story (``pages/0_Start_here.py``).

``step`` (1-based) picks the slide, so a presenter can link any step; each step draws at
most two of the ``story_`` controls, inline above its chart.
"""

from __future__ import annotations

from ui.plain.params import BoolParam, FloatParam, IntParam
from ui.plain.story_outline import STEPS

STEP_COUNT = len(STEPS)
STEP = IntParam("step", 1, STEP_COUNT, 1, label="story.step")

# 1 order: add positions to the word vectors (off: both word orders give one output).
ORDER_PE = BoolParam("story_order_pe", False, label="story.order_pe")
# 2 naive: the length of the longer text (the shorter has L = 5).
NAIVE_LEN = IntParam("story_naive_len", 6, 64, 11, label="story.naive_len")
# 3 binary counter: bits (2**bits positions).
BITS = IntParam("story_bits", 2, 6, 4, label="story.bits")
# 4 smooth it: which bit is drawn with its smooth pair.
BIT = IntParam("story_bit", 0, 3, 1, label="story.bit")
# 5 clock hands: the position the hands show.
CLOCK_P = IntParam("story_clock_p", 0, 400, 3, label="story.clock_p")
# 6 the table: model width d.
TABLE_D = IntParam("story_table_d", 8, 128, 32, step=8, label="story.table_d")
# 7 shift: the offset k (positive or negative).
SHIFT_K = IntParam("story_shift_k", -30, 30, 8, label="story.shift_k")
# 8 dot product: start position p of the second curve.
DOT_P = IntParam("story_dot_p", 1, 500, 30, label="story.dot_p")
# 9 through W_q, W_k: the offset k and the random weights' seed.
W_K = IntParam("story_w_k", 0, 30, 4, label="story.w_k")
W_SEED = IntParam("story_w_seed", 0, 99, 0, label="story.w_seed")
# 10 RoPE: the offset m - n.
ROPE_K = IntParam("story_rope_k", 0, 30, 4, label="story.rope_k")
# 11 decay: head dimension.
DECAY_D = IntParam("story_decay_d", 8, 256, 64, step=8, label="story.decay_d")
# 12 context extension: the factor s.
FACTOR = FloatParam("story_factor", 1.0, 32.0, 4.0, step=0.5, label="story.factor")
# 13 pictures: the image's width in tokens (the neighbour below is this far, row by row).
PICTURE_W = IntParam("story_picture_w", 2, 32, 16, label="story.picture_w")

CONTROLS = (ORDER_PE, NAIVE_LEN, BITS, BIT, CLOCK_P, TABLE_D, SHIFT_K, DOT_P, W_K, W_SEED)
CONTROLS += (ROPE_K, DECAY_D, FACTOR, PICTURE_W)
SPECS = (STEP, *CONTROLS)

# The offline deck (tools/export_deck.py) precomputes every value of a control with at
# most ui.plain.deck.MAX_STOPS values; these have more, and stop where a presenter would
# (the default is always one of the stops). Each stop costs a figure in the file.
DECK_STOPS = {
    NAIVE_LEN.key: (6, 8, 11, 16, 24, 32, 48, 64),
    CLOCK_P.key: (0, 1, 2, 3, 5, 10, 25, 50, 100, 200, 400),
    SHIFT_K.key: tuple(range(-30, 31, 2)),
    DOT_P.key: (1, 2, 5, 10, 30, 50, 100, 200, 300, 500),
    W_SEED.key: (0, 1, 2),
    FACTOR.key: (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0),
}
