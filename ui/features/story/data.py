"""The numbers behind each step of the "Start here" story (``ui.features.story.view``).

Plain functions of the step's settings, computed by ``posenc``: the charts draw them
and the sentences quote them (``tests/test_story_page.py`` recomputes every quoted
number). The settings of each step are fixed here, chosen so the chart makes its point:
small L and d where the reader must see single values.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import posenc
from posenc.criteria import bit_fundamental, bit_wave, counter_frequencies
from ui.plain.tokens import token_vector

BASE = 10000.0

# Step 1: three words in two orders; "dog" is followed through one attention layer.
WORDS = ("dog", "bites", "man")
ORDER_A = (0, 1, 2)  # dog bites man
ORDER_B = (2, 1, 0)  # man bites dog
ORDER_D = 8


def _softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def attention_output(order: tuple[int, ...], with_positions: bool) -> np.ndarray:
    """Self-attention output (W_q = W_k = W_v = I) of every word of ``order``, rows in
    sentence order: ``softmax(X X^T / sqrt(d)) X`` with ``X = E (+ PE)``."""
    x = np.stack([token_vector(WORDS[i], ORDER_D, 0) for i in order])
    if with_positions:
        x = x + posenc.sinusoidal(len(order), ORDER_D)
    return _softmax(x @ x.T / np.sqrt(ORDER_D)) @ x


def dog_outputs(with_positions: bool) -> tuple[np.ndarray, np.ndarray]:
    """The output of "dog" in "dog bites man" and in "man bites dog"."""
    a = attention_output(ORDER_A, with_positions)[ORDER_A.index(0)]
    b = attention_output(ORDER_B, with_positions)[ORDER_B.index(0)]
    return a, b


# Step 2: p / (L - 1) for a short and a longer text; the raw index p.
SHORT_LEN = 5


def naive_codes(length: int) -> dict[str, np.ndarray]:
    """``short`` and ``long``: p / (L - 1) at L = 5 and at ``length``; ``index``: p."""
    return {
        "short": posenc.scheme_table("normalised", SHORT_LEN, 2)[:, 0],
        "long": posenc.scheme_table("normalised", length, 2)[:, 0],
        "index": posenc.scheme_table("index", length, 2)[:, 0],
    }


# Step 3: a binary counter.
def counter(bits: int) -> np.ndarray:
    """Positions 0 .. 2**bits - 1 as rows of bits, most significant first."""
    return posenc.binary(2**bits, bits)


# Step 4: one bit and its smooth version.
SMOOTH_POSITIONS = 16


class Smooth(NamedTuple):
    t: np.ndarray
    square: np.ndarray
    smooth: np.ndarray
    positions: np.ndarray
    bits: np.ndarray


def smooth_bit(bit: int) -> Smooth:
    """Bit ``bit`` of p as a square wave, and its first Fourier term (a sin/cos mix)."""
    t = np.linspace(-0.5, SMOOTH_POSITIONS - 0.5, 16 * SMOOTH_POSITIONS + 1)
    p = np.arange(SMOOTH_POSITIONS, dtype=float)
    return Smooth(t, bit_wave(t + 0.5, bit), bit_fundamental(t, bit), p, bit_wave(p, bit))


def speed_ratio(bits: int = 4) -> float:
    """omega_{i+1} / omega_i of the counter's pairs: each turns at half the speed."""
    omega = counter_frequencies(bits)
    return float(omega[1] / omega[0])


# Step 5: clock hands of a small model.
CLOCK_D = 16


def wavelength_ratio(d_model: int = CLOCK_D, base: float = BASE) -> float:
    """lambda_{i+1} / lambda_i = b^(2/d): each hand's wavelength over the previous one."""
    lam = posenc.wavelengths(d_model, base)
    return float(lam[1] / lam[0])


# Step 6: the table.
TABLE_LEN = 40


def table(d_model: int) -> np.ndarray:
    return posenc.sinusoidal(TABLE_LEN, d_model, BASE)


def column_changes(d_model: int) -> tuple[float, float]:
    """Mean change between neighbouring rows of the first column, and the largest change
    of the last two columns over all :data:`TABLE_LEN` rows."""
    pe = table(d_model)
    fast = float(np.abs(np.diff(pe[:, 0])).mean())
    slow = float((pe[:, -2:].max(axis=0) - pe[:, -2:].min(axis=0)).max())
    return fast, slow


# Step 7: one pair on its circle; shifting by k turns every point by omega k.
SHIFT_D, SHIFT_PAIR, SHIFT_LEN = 16, 2, 63
ARROW_STARTS = (0, 15, 30, 45)


def shift_pair() -> tuple[float, np.ndarray, np.ndarray]:
    """omega of the pair, and (sin, cos) of the pair at positions 0 .. SHIFT_LEN + 30."""
    omega = float(posenc.frequencies(SHIFT_D, BASE)[SHIFT_PAIR])
    pe = posenc.sinusoidal(SHIFT_LEN + 31, SHIFT_D, BASE)
    return omega, pe[:, 2 * SHIFT_PAIR], pe[:, 2 * SHIFT_PAIR + 1]


def arrow_starts(k: int) -> np.ndarray:
    """Where the arrows p -> p + k start: ARROW_STARTS, moved on so p + k >= 0."""
    return np.array(ARROW_STARTS) + max(0, -k)


def shift_angles(k: int) -> np.ndarray:
    """The angle each arrow p -> p + k turns, measured on the drawn points (radians)."""
    _, s, c = shift_pair()
    starts = arrow_starts(k)
    turn = np.arctan2(s[starts + k], c[starts + k]) - np.arctan2(s[starts], c[starts])
    return np.angle(np.exp(1j * turn))


# Step 8: the dot product of two codes depends on the offset only.
DOT_D, DOT_OFFSETS = 32, 80


def dot_curves(p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Offsets k, PE[0] . PE[k], and PE[p] . PE[p + k]."""
    k = np.arange(DOT_OFFSETS + 1)
    pe = posenc.sinusoidal(p + DOT_OFFSETS + 1, DOT_D, BASE)
    return k, pe[k] @ pe[0], np.einsum("ij,j->i", pe[p + k], pe[p])


# Steps 9 and 10: the score at a fixed offset, as the query position m moves.
SCORE_D, SCORE_SPAN = 32, 80


def _weights(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    scale = 1 / np.sqrt(SCORE_D)
    return (rng.normal(0, scale, (SCORE_D, SCORE_D)), rng.normal(0, scale, (SCORE_D, SCORE_D)))


def query_positions(k: int) -> np.ndarray:
    """m = k .. k + SCORE_SPAN, so that the key's n = m - k is never negative."""
    return np.arange(k, k + SCORE_SPAN + 1)


def added_scores(k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``PE_m . PE_n`` and ``(PE_m W_q) . (PE_n W_k)`` at n = m - k, for each m."""
    m = query_positions(k)
    pe = posenc.sinusoidal(int(m[-1]) + 1, SCORE_D, BASE)
    w_q, w_k = _weights(seed)
    plain = np.einsum("ij,ij->i", pe[m], pe[m - k])
    weighted = np.einsum("ij,ij->i", pe[m] @ w_q, pe[m - k] @ w_k)
    return plain, weighted


def rope_scores(k: int) -> np.ndarray:
    """``<R(m theta) q, R(n theta) k>`` at n = m - k for a fixed random q and k."""
    m = query_positions(k)
    rng = np.random.default_rng(1)
    q, key = rng.standard_normal(SCORE_D), rng.standard_normal(SCORE_D)
    rq = posenc.rope(np.tile(q, (m.size, 1)), m, BASE)
    rk = posenc.rope(np.tile(key, (m.size, 1)), m - k, BASE)
    return np.einsum("ij,ij->i", rq, rk)


def swing(values: np.ndarray) -> float:
    return float(values.max() - values.min())


# Step 11: the same word farther away scores less, on average.
DECAY_MAX = 4096
DECAY_AT = (10, 100, 1000)


def decay(head_dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Distances r (a log grid 1 .. DECAY_MAX) and E score(r) / E score(0)."""
    r = np.unique(np.concatenate([np.round(np.geomspace(1, DECAY_MAX, 400)), DECAY_AT]))
    theta, _ = posenc.rope_frequencies(head_dim, BASE)
    return r, posenc.same_content_decay(r, theta)


def decay_at(head_dim: int) -> dict[int, float]:
    theta, _ = posenc.rope_frequencies(head_dim, BASE)
    values = posenc.same_content_decay(np.array(DECAY_AT, dtype=float), theta)
    return dict(zip(DECAY_AT, values.tolist(), strict=True))


# Step 12: three ways to stretch the context, as each pair's new speed over its old one.
EXT_D, EXT_ORIGINAL = 64, 512
METHODS = ("linear", "ntk", "yarn")


def speed_ratios(factor: float) -> dict[str, np.ndarray]:
    """theta'_j / theta_j of each method at ``factor``.

    NTK is the NTK-aware rule, base b * s^(d/(d-2)), which slows the slowest pair exactly
    s times: Hugging Face's dynamic form at context s * L0 with factor s raises the base
    further (its slowest pair turns s^2 - s + 1 times slower), a quirk the RoPE page
    shows; one picture of the methods should show the rule itself.
    """
    theta, _ = posenc.rope_frequencies(EXT_D, BASE)
    out = {}
    for method in METHODS:
        if method == "ntk":
            scaled, _ = posenc.rope_frequencies(EXT_D, BASE * factor ** (EXT_D / (EXT_D - 2)))
        else:
            scaled, _ = posenc.rope_frequencies(
                EXT_D, BASE, scaling=method, factor=factor, original_context=EXT_ORIGINAL,
            )  # fmt: skip
        out[method] = scaled / theta
    return out


# Step 13: a picture read row by row (1-D RoPE) or with a position per axis (M-RoPE,
# Qwen3-VL's head size, base and interleaved sections).
PICTURE_D, PICTURE_BASE, PICTURE_SECTION = 128, 5_000_000.0, (24, 20, 20)
PICTURE_ROWS = 12  # rows below the query drawn


def picture_scores(width: int) -> dict[str, np.ndarray]:
    """The score of a token with the same vector r = 0 .. ``PICTURE_ROWS`` rows below it
    in a ``width``-token-wide image, over its score with itself: "raster" with 1-D RoPE
    over the row-by-row order (r rows are r * width positions), "mrope" with M-RoPE
    (r rows are r steps on the height axis only). q is one seeded random vector."""
    q = np.random.default_rng([0, 0]).standard_normal(PICTURE_D)
    rows = np.arange(PICTURE_ROWS + 1)
    raster = posenc.rope(np.tile(q, (rows.size, 1)), rows * width, PICTURE_BASE, layout="split")
    ids = posenc.mrope_position_ids([("image", (1, 2 * rows.size, 2 * width))])
    column = ids[:, rows * width]  # the query's column: tokens (y, 0)
    cos, sin = posenc.mrope_cos_sin(
        column, PICTURE_D, PICTURE_BASE, PICTURE_SECTION, interleaved=True
    )
    half = PICTURE_D // 2
    turned = np.concatenate([-q[half:], q[:half]])
    mrope = q * cos + turned * sin
    self_score = float(q @ q)
    return {
        "raster": raster @ raster[0] / self_score,
        "mrope": mrope @ mrope[0] / self_score,
    }
