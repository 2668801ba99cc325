"""Multi-axis RoPE (M-RoPE) of the Qwen-VL models: three position rows (time, height,
width) for a sequence of text and images, and which frequency pairs each row turns.

Symbols as in the package glossary (:mod:`posenc`: d = head_dim, j, theta_j, b), and:

=====================  =================================================================
``(t, h, w)``          an image's or video's grid in patches (``image_grid_thw``)
``s``                  ``spatial_merge_size``: ``s x s`` patches make one token, so the
                       image gives ``t (h/s) (w/s)`` tokens on a ``t x h' x w'`` grid
                       (``h' = h / s``, ``w' = w / s``)
``P[a, n]``            position of token ``n`` on axis ``a`` (0 time, 1 height, 2 width)
``section``            ``mrope_section = (s_t, s_h, s_w)``, pairs per axis,
                       ``s_t + s_h + s_w = d / 2``
=====================  =================================================================

Text tokens take the same position on all three axes, one more per token; an image that
starts at ``p`` puts its token ``(k, y, x)`` (frame, row, column) at ``(p + k, p + y, p + x)``,
and the text after it resumes at ``p + max(h', w')`` (transformers 5: the larger spatial
side only, so a video with more frames than rows and columns ends above where the text
resumes: its last frames share positions with the next text on the time axis).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from posenc._validate import check_array, check_even, check_int, check_real
from posenc.rope import rope_frequencies

__all__ = ["SEGMENT_KINDS", "mrope_cos_sin", "mrope_position_ids"]

SEGMENT_KINDS = ("text", "image", "video")


def _grid(index: int, value, spatial_merge_size: int) -> tuple[int, int, int]:
    where = f"segments[{index}]"
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 3:
        raise ValueError(f"{where} must hold a grid (t, h, w) of three integers, got {value!r}")
    t, h, w = (
        check_int(f"{where} grid {a}", v, minimum=1) for a, v in zip("thw", value, strict=True)
    )
    for axis, size in (("h", h), ("w", w)):
        if size % spatial_merge_size:
            raise ValueError(
                f"{where} grid {axis} must be a multiple of spatial_merge_size "
                f"({spatial_merge_size}), got {size}"
            )
    return t, h // spatial_merge_size, w // spatial_merge_size


def mrope_position_ids(segments, *, spatial_merge_size: int = 2) -> np.ndarray:
    """Position ids ``P`` of shape ``(3, L)`` for text and images, as Qwen2-VL forms them.

    Equal to transformers' ``Qwen2VLModel.get_rope_index`` (Qwen2-VL, Qwen2.5-VL,
    Qwen3-VL) for the same sequence. With ``p`` the next free position (0 at the start):

    - ``("text", n)``: ``P[:, p + q] = p + q`` for ``q < n``; then ``p += n``. Count every
      token that is not an image's or video's pad token as text (the vision-start and
      vision-end tokens around an image included).
    - ``("image", (t, h, w))`` or ``("video", (t, h, w))``: ``t (h/s) (w/s)`` tokens in
      frame, row, column order, token ``(k, y, x)`` at
      ``(p + floor(k * interval), p + y, p + x)``; then ``p += max(h/s, w/s)``.
      An optional third item ``interval`` (default 1) spaces the frames as Qwen2.5-VL
      does for a video (``tokens_per_second * second_per_grid_t``).

    Parameters
    ----------
    segments : sequence of tuples
        ``("text", n)`` with n >= 0, or ``(kind, (t, h, w)[, interval])`` with kind
        ``"image"`` or ``"video"``, t, h, w >= 1, h and w multiples of
        ``spatial_merge_size``, interval finite and >= 0.
    spatial_merge_size : int
        ``s`` >= 1 (2 in every Qwen-VL model).

    Returns
    -------
    ndarray of int64, shape (3, L)

    Examples
    --------
    Two text tokens, a 4 x 4 patch image (4 tokens on a 2 x 2 grid), one text token:

    >>> mrope_position_ids([("text", 2), ("image", (1, 4, 4)), ("text", 1)])
    array([[0, 1, 2, 2, 2, 2, 4],
           [0, 1, 2, 2, 3, 3, 4],
           [0, 1, 2, 3, 2, 3, 4]])

    Three frames on one row of two tokens: the text resumes at ``p + 2``, below the
    last frame's time position 4:

    >>> mrope_position_ids([("video", (3, 2, 4)), ("text", 1)])
    array([[0, 0, 1, 1, 2, 2, 2],
           [0, 0, 0, 0, 0, 0, 2],
           [0, 1, 0, 1, 0, 1, 2]])
    """
    s = check_int("spatial_merge_size", spatial_merge_size, minimum=1)
    if isinstance(segments, str | bytes) or not isinstance(segments, Sequence):
        raise ValueError(f"segments must be a sequence of (kind, value) tuples, got {segments!r}")
    parts = []
    start = 0
    for index, segment in enumerate(segments):
        where = f"segments[{index}]"
        if (
            isinstance(segment, str)
            or not isinstance(segment, Sequence)
            or len(segment) not in (2, 3)
            or segment[0] not in SEGMENT_KINDS
        ):
            raise ValueError(
                f"{where} must be (kind, value[, interval]) with kind in {SEGMENT_KINDS}, "
                f"got {segment!r}"
            )
        kind = segment[0]
        if kind == "text":
            if len(segment) != 2:
                raise ValueError(f'{where} must be ("text", n), got {segment!r}')
            n = check_int(f"{where} text length", segment[1], minimum=0)
            parts.append(np.broadcast_to(np.arange(start, start + n, dtype=np.int64), (3, n)))
            start += n
            continue
        t, h, w = _grid(index, segment[1], s)
        interval = 1.0
        if len(segment) == 3:
            interval = check_real(f"{where} interval", segment[2], at_least=0.0)
        frames = np.floor(np.arange(t, dtype=np.float64) * interval).astype(np.int64)
        axes = np.meshgrid(frames, np.arange(h), np.arange(w), indexing="ij")
        parts.append(np.stack(axes).reshape(3, -1) + start)
        start += max(h, w)
    if not parts:
        return np.zeros((3, 0), dtype=np.int64)
    return np.concatenate(parts, axis=1)


def _axis_of_pairs(half: int, section, interleaved: bool) -> np.ndarray:
    """Which position row (0 t, 1 h, 2 w) turns each of the d/2 pairs."""
    if interleaved:
        # Qwen3-VL: pairs 1, 4, 7, ... (< 3 s_h) to height, 2, 5, 8, ... (< 3 s_w) to
        # width, the rest (0, 3, 6, ... and all pairs past them) to time.
        axis = np.zeros(half, dtype=np.int64)
        for row, offset in ((1, 1), (2, 2)):
            axis[offset : 3 * section[row] : 3] = row
        return axis
    # Qwen2-VL / Qwen2.5-VL: the first s_t pairs to time, the next s_h to height, the
    # last s_w to width.
    return np.repeat(np.arange(3), section)


def mrope_cos_sin(
    position_ids,
    head_dim: int,
    base: float,
    mrope_section,
    *,
    interleaved: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of M-RoPE's angles, ``(L, d)`` each, in the rotate-half layout.

    Pair ``j`` (columns ``j`` and ``d/2 + j``) at token ``n`` turns by
    ``P[a(j), n] * theta_j``, ``theta_j = b ** (-2j / d)``, where ``a(j)`` is the position
    row the section gives pair ``j``:

    - chunked (Qwen2-VL, Qwen2.5-VL; ``interleaved=False``): ``a(j) = 0`` for
      ``j < s_t``, 1 for ``s_t <= j < s_t + s_h``, 2 after;
    - interleaved (Qwen3-VL): ``a(j) = 1`` for ``j = 1 mod 3, j < 3 s_h``, 2 for
      ``j = 2 mod 3, j < 3 s_w``, else 0.

    Equal to transformers' rotary embeddings of those models (``recomposition_frequencies``
    after ``cos``/``sin`` of the three rows), with the angles in float64: transformers
    forms them in float32 (off by ~1e-3 radians at position 10 000).
    With all three rows equal this is plain RoPE (:func:`posenc.rope`, split layout).

    Parameters
    ----------
    position_ids : array_like of int, shape (3, L)
        As :func:`mrope_position_ids` returns; integers >= 0.
    head_dim : int
        ``d``: even, >= 6.
    base : float
        ``b``: finite, > 1.
    mrope_section : sequence of three ints
        ``(s_t, s_h, s_w)``, each >= 0, summing to ``d / 2``; interleaved also needs
        ``3 s_h <= d / 2`` and ``3 s_w <= d / 2``.
    interleaved : bool
        Qwen3-VL's layout instead of the chunked one.

    Returns
    -------
    cos, sin : ndarray of float64, shape (L, d)

    Examples
    --------
    >>> p = mrope_position_ids([("text", 1), ("image", (1, 2, 4))])
    >>> cos, sin = mrope_cos_sin(p, 6, 10000.0, (1, 1, 1))
    >>> p
    array([[0, 1, 1],
           [0, 1, 1],
           [0, 1, 2]])
    >>> sin[:, :3].round(3)  # pair 0 turns with time, pair 1 with height, pair 2 with width
    array([[0.   , 0.   , 0.   ],
           [0.841, 0.046, 0.002],
           [0.841, 0.046, 0.004]])
    """
    head_dim = check_even("head_dim", head_dim, minimum=6)
    half = head_dim // 2
    ids = np.asarray(position_ids)
    if ids.ndim != 2 or ids.shape[0] != 3 or ids.dtype.kind not in "iu" or np.any(ids < 0):
        raise ValueError(
            "position_ids must be an integer array of shape (3, L) with entries >= 0, got "
            f"shape {ids.shape}, dtype {ids.dtype}"
        )
    ids = check_array("position_ids", ids, min_ndim=2)
    if not isinstance(interleaved, bool):
        raise ValueError(f"interleaved must be True or False, got {interleaved!r}")
    if (
        isinstance(mrope_section, str)
        or not isinstance(mrope_section, Sequence)
        or len(mrope_section) != 3
        or not all(isinstance(v, numbers.Integral) and v >= 0 for v in mrope_section)
        or sum(mrope_section) != half
    ):
        raise ValueError(
            f"mrope_section must be three integers >= 0 summing to head_dim / 2 = {half}, "
            f"got {mrope_section!r}"
        )
    section = [int(v) for v in mrope_section]
    if interleaved and max(section[1], section[2]) * 3 > half:
        raise ValueError(
            f"mrope_section must have 3 * s_h and 3 * s_w <= head_dim / 2 = {half} when "
            f"interleaved, got {mrope_section!r}"
        )
    theta, _ = rope_frequencies(head_dim, base)
    axis = _axis_of_pairs(half, section, interleaved)
    angles = ids[axis].T * theta  # (L, d/2): row a(j) of P times theta_j, float64
    cos, sin = np.cos(angles), np.sin(angles)
    return np.concatenate([cos, cos], axis=1), np.concatenate([sin, sin], axis=1)
