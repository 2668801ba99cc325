"""Cached computations of the Heatmap page.

Large matrices are never held whole: the grids are block means built from rows
computed piece by piece (``ui.figures.common.block_means``), and the similarity
matrix comes from its offset vector (Toeplitz), not from ``PE @ PE.T``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import posenc
from posenc.frameworks import framework_table, max_abs_differences
from ui.features.heatmap.specs import MAX_TOKENS
from ui.plain.columns import pair_kind
from ui.plain.grids import Grid, block_means, steps
from ui.plain.tokens import tokenize
from ui.shared import data_cache
from ui.shared.pe_table import column_order, table_grid  # noqa: F401  (the page reads data.table_grid)

# Full matrices (numeric table, downloads) are offered up to this many entries.
FULL_MAX = 1_000_000
# The embedding panels show at most this corner of the (L, d) matrices.
EMBED_ROWS, EMBED_COLS = 100, 128


def tokens(sentence: str) -> tuple[list[str], int]:
    """The tokens of ``sentence`` as typed (at most ``MAX_TOKENS``) and how many it had:
    words, single CJK characters and punctuation marks, as on the RoPE page."""
    found = tokenize(sentence, lower=False)
    return list(found[:MAX_TOKENS]), len(found)


@data_cache.cache_data(max_entries=8)
def table(framework: str, length: int, d_model: int, base: float, layout: str) -> np.ndarray:
    """The whole float64 table (only called when ``length * d_model <= FULL_MAX``)."""
    return framework_table(framework, length, d_model, base, layout=layout)


class Peak(NamedTuple):
    """Where (framework - paper) is largest: its largest |entry| ``worst``, at position
    ``position`` in pair ``pair``, and the pairs ``low`` … ``high`` between the first and
    the last whose largest |entry| is at least half of ``worst``."""

    worst: float
    position: int
    pair: int
    low: int
    high: int


def peak(pair_max: np.ndarray, row_max: np.ndarray) -> Peak:
    """:class:`Peak` from the largest |difference| per pair and per position.

    >>> peak(np.array([0.1, 0.6, 1.0, 0.2]), np.array([0.0, 0.5, 1.0]))
    Peak(worst=1.0, position=2, pair=2, low=1, high=2)
    """
    worst = float(pair_max.max())
    big = np.flatnonzero(pair_max >= worst / 2)
    return Peak(worst, int(row_max.argmax()), int(pair_max.argmax()), int(big[0]), int(big[-1]))


@data_cache.cache_data(max_entries=8)
def difference_grid(
    framework: str, length: int, d_model: int, base: float, layout: str, group: bool
) -> tuple[Grid, Peak]:
    """(framework - paper), same layout and order, and where it is largest (:class:`Peak`).

    Downsampled as the largest |entry| of each block: a mean would cancel the
    oscillating differences and hide where they are.
    """
    order = column_order(d_model, layout, group)
    pair, _ = pair_kind(d_model, layout)
    pair_max = np.zeros(d_model // 2)
    row_max = np.zeros(length)

    def rows(a: int, b: int) -> np.ndarray:
        ours = framework_table(framework, b - a, d_model, base, layout=layout, offset=a)
        diff = ours - posenc.sinusoidal(b - a, d_model, base, layout=layout, offset=a)
        size = np.abs(diff)
        np.maximum.at(pair_max, pair, size.max(axis=0))
        row_max[a:b] = size.max(axis=1)
        return diff[:, order]

    grid = block_means(length, d_model, rows, reduce="max_abs")
    return grid, peak(pair_max, row_max)


def most_different(differences: dict[str, float | None]) -> str | None:
    """The implementation farthest from the paper (largest max |difference|), or None
    when every one matches it or cannot be computed."""
    found = {name: diff for name, diff in differences.items() if diff}
    return max(found, key=found.get) if found else None


@data_cache.cache_data(max_entries=8)
def framework_differences(length: int, d_model: int, base: float) -> dict[str, float | None]:
    return max_abs_differences(length, d_model, base)


@data_cache.cache_data(max_entries=8)
def toeplitz_block_means(values: np.ndarray, row_step: int | None = None, col_step=None) -> Grid:
    """Block means of the symmetric Toeplitz matrix ``S[i, j] = values[|i - j|]``.

    ``O(L + cells)`` work from two running sums over the offsets: the sum of a block
    ``[r0, r1) x [c0, c1)`` is ``K(r1-1-c0) - K(r0-1-c0) - K(r1-1-c1) + K(r0-1-c1)``
    with ``K`` the cumulative sum of the cumulative sum of ``values[|m|]``. The
    ``L x L`` matrix is never formed.
    """
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    if row_step is None or col_step is None:
        row_step, col_step = steps(n, n)
    if row_step == 1 and col_step == 1:
        index = np.arange(n)
        return block_means(n, n, lambda a, b: values[np.abs(index[a:b, None] - index[None, :])])
    # h[m + n] = values[|m|] for m = -n .. n - 1 (m = -n is a zero pad).
    h = np.concatenate([[0.0], values[:0:-1], values])
    k = np.concatenate([[0.0], np.cumsum(np.cumsum(h))])  # K(m) sits at index m + n + 1

    def big_k(m):
        return k[m + n + 1]

    r = np.append(np.arange(0, n, row_step), n)
    c = np.append(np.arange(0, n, col_step), n)
    r0, r1 = r[:-1, None], r[1:, None]
    c0, c1 = c[None, :-1], c[None, 1:]
    sums = big_k(r1 - 1 - c0) - big_k(r0 - 1 - c0) - big_k(r1 - 1 - c1) + big_k(r0 - 1 - c1)
    z = (sums / ((r1 - r0) * (c1 - c0))).astype(np.float32)
    return Grid(z, (r[:-1] + r[1:] - 1) / 2, (c[:-1] + c[1:] - 1) / 2, row_step, col_step)


def offset_values(length: int, d_model: int, base: float) -> np.ndarray:
    """``PE[i] . PE[j]`` for offsets ``|i - j| = 0 .. length - 1``: all of ``PE PE^T``."""
    return posenc.dot_products(np.arange(length), d_model, base)


@data_cache.cache_data(max_entries=8)
def similarity_grid(length: int, d_model: int, base: float) -> Grid:
    """``PE PE^T`` as block means, from the offset vector (Toeplitz), never L x L."""
    return toeplitz_block_means(offset_values(length, d_model, base))


def similarity_row(length: int, d_model: int, base: float, reference: int) -> np.ndarray:
    """Row ``reference`` of ``PE PE^T``: ``PE[reference] . PE[j]`` for every j."""
    values = offset_values(length, d_model, base)
    return values[np.abs(np.arange(length) - reference)]


@data_cache.cache_data(max_entries=8)
def embedding_panels(
    length: int, d_model: int, base: float, layout: str, seed: int, *, scaled: bool = True
) -> dict:
    """The top-left corner of E, PE, E + PE, E + pos, E + pos/(L-1) (same shape each).

    The embedding weights are drawn with standard deviation ``1/sqrt(d)`` (as
    tensor2tensor and fairseq initialise them) and, ``scaled``, multiplied by
    ``sqrt(d_model)`` as the paper does before adding PE (section 3.4): E is then
    ``np.random.default_rng(seed).standard_normal((L, d))``. Drawing only the first rows
    gives exactly those rows of the full matrix (row-major fill).
    """
    rows, cols = min(length, EMBED_ROWS), min(d_model, EMBED_COLS)
    emb = np.random.default_rng(seed).standard_normal((rows, d_model))[:, :cols]
    if not scaled:
        emb = emb / np.sqrt(d_model)
    pe = posenc.sinusoidal(rows, d_model, base, layout=layout)[:, :cols]
    index = posenc.scheme_table("index", rows, cols)
    normalised = posenc.scheme_table("normalised", rows, cols, total_length=length)
    return {
        "emb": emb,
        "pe": pe,
        "sum": emb + pe,
        "index": emb + index,
        "normalised": emb + normalised,
    }
