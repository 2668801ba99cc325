"""Cached computations of the multi-axis RoPE page: position rows, the pairs each axis
turns, and the four score maps over one frame of an image.

Every number comes from ``posenc`` (``mrope_position_ids``, ``mrope_cos_sin``, ``rope``,
``rope_frequencies``); here: the real models' sections, the content, the display budget
of the position chart and the ``st.cache_data`` wrappers.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import posenc
from ui.plain.grids import MAX_LINE_POINTS
from ui.shared import data_cache

HEAD_DIM = 128  # every Qwen-VL model's head size
MERGE = 2  # spatial_merge_size: 2 x 2 patches make one token
# mrope_section of the real models (config.json, rope_scaling / rope_parameters).
SECTIONS = {"chunked": (16, 24, 24), "interleaved": (24, 20, 20)}
AXES = ("time", "height", "width")
# The four ways of the picture tab, in the order drawn.
METHODS = ("raster", "chunked", "interleaved", "axial")


class Positions(NamedTuple):
    ids: np.ndarray  # (3, L) int64: time, height, width
    image_start: int  # token index of the image's first token
    after_start: int  # token index where the text after the image starts
    start: int  # position p of the image's first token
    resume: int  # position of the first text token after the image
    last_time: int  # the image's largest time position
    overlap: int  # image tokens whose time position is >= resume
    rows: int  # h' = h / s
    cols: int  # w' = w / s


def segments(before: int, frames: int, height: int, width: int, after: int) -> list:
    """Text, one image or video of ``frames x height x width`` patches, text."""
    kind = "video" if frames > 1 else "image"
    return [("text", before), (kind, (frames, height, width)), ("text", after)]


@data_cache.cache_data(max_entries=8)
def positions(before: int, frames: int, height: int, width: int, after: int) -> Positions:
    """posenc.mrope_position_ids of :func:`segments`, with where the text resumes."""
    ids = posenc.mrope_position_ids(segments(before, frames, height, width, after))
    rows, cols = height // MERGE, width // MERGE
    after_start = before + frames * rows * cols
    image = ids[0, before:after_start]
    resume = int(ids[0, after_start])
    return Positions(
        ids=ids,
        image_start=before,
        after_start=after_start,
        start=int(ids[0, before]),
        resume=resume,
        last_time=int(image.max()),
        overlap=int(np.count_nonzero(image >= resume)),
        rows=rows,
        cols=cols,
    )


def line_step(n: int, max_points: int = MAX_LINE_POINTS) -> int:
    """Every ``step``-th token is drawn so that a line has at most ``max_points`` points."""
    return max(1, math.ceil(n / max_points))


def axis_of_pairs(layout: str) -> np.ndarray:
    """Which axis (0 time, 1 height, 2 width) turns each of the d/2 pairs in ``layout``,
    read from posenc.mrope_cos_sin: token a sits at position 1 on axis a only, so pair j
    turns at token a exactly when axis a drives it."""
    one_hot = np.eye(3, dtype=np.int64)
    _, sin = posenc.mrope_cos_sin(
        one_hot, HEAD_DIM, 10000.0, SECTIONS[layout], interleaved=layout == "interleaved"
    )
    return np.argmax(sin[:, : HEAD_DIM // 2] != 0, axis=0)


def wavelengths(base: float) -> np.ndarray:
    """2 pi / theta_j of the d/2 pairs (positions per turn)."""
    theta, _ = posenc.rope_frequencies(HEAD_DIM, base)
    return 2 * np.pi / theta


def content(seed: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """q and k before rotation, the same at every token: a seeded random q and k (k = q
    for ``"same"``), drawn as the RoPE page draws its "random" content."""
    rng = np.random.default_rng([seed, 0])
    q = rng.standard_normal(HEAD_DIM)
    k = q if kind == "same" else rng.standard_normal(HEAD_DIM)
    return q, k


def _rotate_half(x: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def _mrope(x: np.ndarray, ids: np.ndarray, base: float, layout: str) -> np.ndarray:
    """x (L, d) rotated by M-RoPE: x cos + rotate_half(x) sin (the models' own form)."""
    cos, sin = posenc.mrope_cos_sin(
        ids, HEAD_DIM, base, SECTIONS[layout], interleaved=layout == "interleaved"
    )
    return x * cos + _rotate_half(x) * sin


def _axial(x: np.ndarray, rows: np.ndarray, cols: np.ndarray, base: float) -> np.ndarray:
    """2-D axial RoPE of vision transformers (Qwen2-VL's vision tower): pairs j < d/4 turn
    with the row, the others with the column, each half with the frequencies of a
    d/2-dimensional RoPE, b^(-2i/(d/2)). Two posenc.rope calls on disjoint pairs."""
    quarter = HEAD_DIM // 4
    theta = base ** (-2.0 * np.arange(quarter) / (HEAD_DIM // 2))
    zero = np.zeros(quarter)
    by_row = posenc.rope(x, rows, layout="split", inv_freq=np.concatenate([theta, zero]))
    return posenc.rope(by_row, cols, layout="split", inv_freq=np.concatenate([zero, theta]))


class ScoreMaps(NamedTuple):
    maps: dict  # method -> (rows, cols) scores S = <q_m, k_n> / sqrt(d)
    query: tuple[int, int]  # (row, column) of the query token


def _rotated(x, method: str, ids, rows, cols, width: int, base: float) -> np.ndarray:
    """Rows of ``x`` rotated to the tokens with position ids ``ids`` (3, n), row ``rows``
    and column ``cols`` of a grid ``width`` tokens wide, ``method``'s way."""
    if method == "raster":  # 1-D RoPE: the row-major index y w' + x is the position
        return posenc.rope(x, rows * width + cols, base, layout="split")
    if method == "axial":
        return _axial(x, rows, cols, base)
    return _mrope(x, ids, base, method)


@data_cache.cache_data(max_entries=16)
def score_maps(rows: int, cols: int, base: float, query: int, kind: str, seed: int) -> ScoreMaps:
    """For the query token ``query`` (row-major index, clamped to the grid) of one
    ``rows x cols`` frame, its score ``<q_m, k_n> / sqrt(d)`` against every key token,
    four ways (:data:`METHODS`): 1-D RoPE over the raster order (position ``y w' + x``),
    M-RoPE chunked and interleaved (the real models' sections), 2-D axial RoPE."""
    n = rows * cols
    query = min(query, n - 1)
    q, k = content(seed, kind)
    keys = np.tile(k, (n, 1))
    y, x = np.divmod(np.arange(n), cols)
    ids = posenc.mrope_position_ids([("image", (1, rows * MERGE, cols * MERGE))])
    maps = {}
    for method in METHODS:
        rk = _rotated(keys, method, ids, y, x, cols, base)
        at = slice(query, query + 1)
        rq = _rotated(q[None, :], method, ids[:, at], y[at], x[at], cols, base)[0]
        maps[method] = (rk @ rq / math.sqrt(HEAD_DIM)).reshape(rows, cols)
    return ScoreMaps(maps, (int(y[query]), int(x[query])))


# A map whose scores span under this share of the shared colour range (2 max |S|) shows
# as one colour: its panel says so.
FLAT_SHARE = 0.02


def flat_spans(maps: dict[str, np.ndarray]) -> dict[str, float]:
    """The maps drawn in nearly one colour, with how far their scores span (max - min)."""
    top = max(float(np.max(np.abs(z))) for z in maps.values()) or 1.0
    spans = {method: float(np.ptp(z)) for method, z in maps.items()}
    return {method: span for method, span in spans.items() if span < FLAT_SHARE * 2 * top}


def spreads(grid: np.ndarray, query: tuple[int, int]) -> tuple[float, float]:
    """max - min of the scores along the query's row and along its column."""
    row, col = query
    return float(np.ptp(grid[row, :])), float(np.ptp(grid[:, col]))
