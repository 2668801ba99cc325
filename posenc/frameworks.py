"""The sinusoidal table as popular code bases write it, next to the paper's.

All of them encode position ``p`` with sin/cos pairs of geometric frequencies; they
differ in three details only:

===========  =============  ==========================  =====================================
name         native layout  frequency ``omega_i``       what differs from the paper
===========  =============  ==========================  =====================================
``paper``    interleaved    ``base ** (-2 i / d)``      nothing: the reference (float64)
``torch32``  interleaved    same, in float32            PyTorch tutorial as run: float32
``tf``       split          ``base ** (-i / (d/2))``    column order only (TF tutorial)
``tf_old``   interleaved    ``base ** (-2(j//2) / d)``  nothing (older TF tutorial)
``t2t``      split          ``base ** (-i / (d/2-1))``  layout and exponent (tensor2tensor)
``fairseq``  split          ``base ** (-i / (d/2-1))``  as t2t; needs ``d >= 4``
===========  =============  ==========================  =====================================

``i = 0 .. d/2 - 1`` is the pair index and ``j`` the column. The layouts are those of
:mod:`posenc.sinusoidal`. ``torch32`` reproduces the arithmetic of the PyTorch
tutorial's ``PositionalEncoding`` (seed 000): ``div_term``, the angle ``p * div_term``
and ``sin`` / ``cos`` are each rounded to float32 (correctly, as in
:func:`posenc.spectrum.torch_rows_f32`), so its error grows with the position. torch's
own ``exp`` and ``sin`` (MKL or SLEEF, depending on the CPU) may differ by one ulp.
"""

from __future__ import annotations

import numpy as np

from posenc import _threads
from posenc._validate import check_base, check_even, check_int, check_layout
from posenc.float32 import sin_cos_f32
from posenc.frequency_forms import frequencies_logspace
from posenc.sinusoidal import frequencies, sinusoidal, table_from_frequencies

__all__ = [
    "FRAMEWORKS",
    "NATIVE_LAYOUT",
    "framework_frequencies",
    "framework_table",
    "max_abs_difference",
    "max_abs_differences",
]

FRAMEWORKS = ("paper", "torch32", "tf", "tf_old", "t2t", "fairseq")
NATIVE_LAYOUT = {
    "paper": "interleaved",
    "torch32": "interleaved",
    "tf": "split",
    "tf_old": "interleaved",
    "t2t": "split",
    "fairseq": "split",
}
# Rows per block when a table is built piecewise: about 4 M entries at a time.
_BLOCK_ENTRIES = 1 << 22


def _check_name(name) -> str:
    if name not in FRAMEWORKS:
        raise ValueError(f"name must be one of {FRAMEWORKS}, got {name!r}")
    return name


def _torch32_div_term(d_model: int, base: float) -> np.ndarray:
    # torch.exp(torch.arange(0, d, 2) * -(math.log(base) / d)), all in float32, each step
    # rounded correctly. Against torch 2.13 (d = 512..4096) this differs in 1-2% of the
    # entries, by one ulp; numpy's own float32 exp differs in ~40%.
    return frequencies_logspace(d_model, base, dtype=np.float32)


def framework_frequencies(name: str, d_model: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequencies ``omega_i`` of pair ``i`` as framework ``name`` computes them.

    Parameters
    ----------
    name : one of ``FRAMEWORKS``
    d_model : int
        Even, >= 2 (>= 4 for ``"fairseq"``, which divides by ``d_model / 2 - 1``).
    base : float
        Finite, > 1. For ``"t2t"`` and ``"fairseq"`` it is ``max_timescale``
        (``min_timescale = 1``).

    Returns
    -------
    omega : ndarray, shape (d_model // 2,), float64
        For ``"torch32"`` the float32 values, exactly converted.

    Examples
    --------
    >>> framework_frequencies("t2t", 6, base=100.0)
    array([1.  , 0.1 , 0.01])
    >>> framework_frequencies("paper", 6, base=100.0).round(4)
    array([1.    , 0.2154, 0.0464])
    """
    name = _check_name(name)
    d_model = check_even("d_model", d_model, minimum=4 if name == "fairseq" else 2)
    base = check_base(base)
    if name == "torch32":
        return _torch32_div_term(d_model, base).astype(np.float64)
    if name in ("t2t", "fairseq"):
        half = d_model // 2
        # tensor2tensor: log_timescale_increment = log(max/min) / max(half - 1, 1).
        return base ** (-np.arange(half, dtype=np.float64) / max(half - 1, 1))
    return frequencies(d_model, base)


def _place(sin: np.ndarray, cos: np.ndarray, out: np.ndarray, layout: str) -> None:
    half = sin.shape[1]
    if layout == "interleaved":
        out[:, 0::2] = sin
        out[:, 1::2] = cos
    else:
        out[:, :half] = sin
        out[:, half:] = cos


def framework_table(
    name: str,
    length: int,
    d_model: int,
    base: float = 10000.0,
    *,
    layout: str | None = None,
    offset: int = 0,
) -> np.ndarray:
    """The table ``PE[r]`` of positions ``p = offset + r`` as framework ``name`` builds it.

    .. math::

        PE_{(p, \\mathrm{sin}_i)} = \\sin(\\omega_i p), \\quad
        PE_{(p, \\mathrm{cos}_i)} = \\cos(\\omega_i p)

    with ``omega_i`` from :func:`framework_frequencies` and the columns in ``layout``.

    Parameters
    ----------
    name : one of ``FRAMEWORKS``
    length : int
        Rows, >= 1.
    d_model : int
        Even, >= 2 (>= 4 for ``"fairseq"``).
    base : float
        Finite, > 1.
    layout : {"interleaved", "split"}, optional
        Column order; default: the framework's own (``NATIVE_LAYOUT[name]``).
    offset : int
        First position, >= 0 (lets a long table be built in pieces).

    Returns
    -------
    PE : ndarray, shape (length, d_model), float64
        ``"torch32"`` holds float32 results, exactly converted.

    Examples
    --------
    tensor2tensor's slowest pair has wavelength ``2 pi base`` exactly:

    >>> framework_table("t2t", 2, 4, base=100.0, offset=1).round(4)
    array([[ 0.8415,  0.01  ,  0.5403,  1.    ],
           [ 0.9093,  0.02  , -0.4161,  0.9998]])

    TensorFlow's tutorial only reorders the paper's columns:

    >>> from posenc.rotation import split_permutation
    >>> tf = framework_table("tf", 50, 128)
    >>> bool(np.array_equal(tf, sinusoidal(50, 128)[:, split_permutation(128)]))
    True
    """
    name = _check_name(name)
    length = check_int("length", length, minimum=1)
    omega = framework_frequencies(name, d_model, base)
    base = check_base(base)
    layout = NATIVE_LAYOUT[name] if layout is None else check_layout(layout)
    offset = check_int("offset", offset, minimum=0)
    d_model = 2 * omega.size
    if name in ("paper", "tf", "tf_old"):
        # Same frequencies as the paper (tf_old's exponent 2*(j//2)/d is 2i/d).
        return sinusoidal(length, d_model, base, layout=layout, offset=offset)
    if name != "torch32":
        return table_from_frequencies(omega, length, offset=offset, layout=layout)
    out = np.empty((length, d_model))
    rows = max(1, _BLOCK_ENTRIES // omega.size)
    for start in range(0, length, rows):
        stop = min(start + rows, length)
        # position * div_term: int64 times float32 gives float32 in torch.
        positions = np.arange(offset + start, offset + stop, dtype=np.float32)
        angles = positions[:, None] * _torch32_div_term(d_model, base)[None, :]
        _place(*sin_cos_f32(angles), out[start:stop], layout)
    return out


def max_abs_difference(
    name: str, length: int, d_model: int, base: float = 10000.0, *, aligned: bool = True
) -> float:
    """Largest ``|framework_table - paper|`` over positions ``0 .. length - 1``.

    Parameters
    ----------
    name : one of ``FRAMEWORKS``
    length, d_model, base
        As for :func:`framework_table`.
    aligned : bool
        True: both tables in the same layout, so each (pair, sin/cos) channel is
        compared with the same channel (what the formula changes). False: each table
        in its native layout, column by column (what code mixing the two would see).

    Returns
    -------
    float

    Notes
    -----
    Built in blocks of rows, so the memory stays small for any ``length``.

    Examples
    --------
    >>> max_abs_difference("tf", 50, 128)
    0.0
    >>> round(max_abs_difference("t2t", 50, 128), 4)
    0.2789
    >>> max_abs_difference("tf", 50, 128, aligned=False) > 1
    True
    """
    name = _check_name(name)
    length = check_int("length", length, minimum=1)
    omega = framework_frequencies(name, d_model, base)
    layout = "interleaved" if aligned else NATIVE_LAYOUT[name]
    rows = max(1, _BLOCK_ENTRIES // (2 * omega.size))
    worst = 0.0
    for start in range(0, length, rows):
        count = min(rows, length - start)
        ours = framework_table(name, count, d_model, base, layout=layout, offset=start)
        paper = sinusoidal(count, d_model, base, offset=start)
        worst = max(worst, float(np.max(np.abs(ours - paper))))
    return worst


def _largest_magnitude(x: np.ndarray) -> float:
    """``max |x|`` from two read-only passes (no ``|x|`` array written)."""
    return max(float(x.max()), -float(x.min()))


def max_abs_differences(
    length: int, d_model: int, base: float = 10000.0, names=FRAMEWORKS
) -> dict[str, float | None]:
    """:func:`max_abs_difference` (aligned) for several frameworks in one pass.

    Frameworks that build the same table share one computation: ``tf`` and ``tf_old``
    use the paper's own table (difference 0 by construction), ``fairseq`` the one of
    ``t2t``. The paper's block is computed once per block of rows. A framework that
    does not accept ``d_model`` (``"fairseq"`` at ``d_model = 2``) maps to ``None``.

    Examples
    --------
    >>> table = max_abs_differences(50, 128, names=("tf", "t2t", "fairseq"))
    >>> table["tf"], round(table["t2t"], 4), table["fairseq"] == table["t2t"]
    (0.0, 0.2789, True)
    >>> max_abs_differences(3, 2, names=("fairseq",))
    {'fairseq': None}
    """
    length = check_int("length", length, minimum=1)
    d_model = check_even("d_model", d_model)
    result: dict[str, float | None] = {}
    for name in names:
        _check_name(name)
        result[name] = None if (name == "fairseq" and d_model < 4) else 0.0
    # One representative per distinct table; the paper's equals paper, tf, tf_old.
    same_as = {"tf": "paper", "tf_old": "paper", "fairseq": "t2t"}
    computed = {same_as.get(n, n) for n, v in result.items() if v is not None} - {"paper"}
    omega = {name: framework_frequencies(name, d_model, base) for name in computed | {"paper"}}
    div_term = _torch32_div_term(d_model, base)

    def chunk(start: int) -> dict[str, float]:
        count = min(rows, length - start)
        paper = table_from_frequencies(omega["paper"], count, offset=start)
        found = {}
        for name in computed:
            if name == "torch32":
                positions = np.arange(start, start + count, dtype=np.float32)
                angles = positions[:, None] * div_term[None, :]
                diff = np.empty(angles.shape)  # float32 results against float64 exactly
                worst = 0.0
                for values, column in zip(sin_cos_f32(angles), (0, 1), strict=True):
                    np.subtract(values, paper[:, column::2], out=diff)
                    worst = max(worst, _largest_magnitude(diff))
                found[name] = worst
            else:
                ours = table_from_frequencies(omega[name], count, offset=start)
                found[name] = _largest_magnitude(np.subtract(ours, paper, out=ours))
        return found

    # Chunks of ~1 M entries on posenc's thread pool for large tables (numpy releases
    # the GIL in its loops); each chunk's own tables stay below the threaded size.
    rows = max(1, (_BLOCK_ENTRIES // 4) // d_model)
    starts = range(0, length if computed else 0, rows)
    found = _threads.run(chunk, starts, size=length * d_model)
    worst = {name: max((f[name] for f in found), default=0.0) for name in computed}
    for name, value in result.items():
        if value is not None:
            result[name] = worst.get(same_as.get(name, name), 0.0)
    return result
