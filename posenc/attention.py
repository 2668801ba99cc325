"""Attention scores around RoPE: scaling, causal softmax, relative-distance views, checks.

Symbols as in the package glossary (:mod:`posenc`: m, n, d = head_dim, j, theta_j,
r = m - n), and:

=============  ==============================================================
``S[m, n]``    raw score of the query at position m and the key at position n
``h_j``        complex pair product ``q_j conj(k_j)``, ``q_j = q_{(1)} + i q_{(2)}``
=============  ==============================================================

With RoPE and the same content at every position, ``S[m, n] = g(m - n)`` with
``g(r) = Re sum_j h_j e^{i r theta_j}`` (seed 002): the matrix is Toeplitz.
"""

from __future__ import annotations

import math

import numpy as np

from posenc._validate import check_array, check_int, check_layout, check_real

__all__ = [
    "additive_scores",
    "causal_softmax",
    "decay_bound",
    "prefix_entropies",
    "relative_scores",
    "rotations",
    "same_content_decay",
    "scale_scores",
    "toeplitz_residual",
]

# Rows per chunk in the chunked reductions (keeps temporaries near 16 MB at n = 4096).
_CHUNK = 512


def _inv_freq(inv_freq, head_dim: int | None = None) -> np.ndarray:
    theta = check_array("inv_freq", inv_freq).astype(np.float64, copy=False)
    if theta.ndim != 1 or theta.size < 1:
        raise ValueError(f"inv_freq must be a non-empty 1-D array, got shape {theta.shape}")
    if head_dim is not None and theta.size != head_dim // 2:
        raise ValueError(f"inv_freq must have shape ({head_dim // 2},), got {theta.shape}")
    return theta


def _distances(distances) -> np.ndarray:
    r = check_array("distances", distances).astype(np.float64, copy=False)
    if r.ndim != 1:
        raise ValueError(f"distances must be a 1-D array, got shape {r.shape}")
    return r


def scale_scores(scores, head_dim: int) -> np.ndarray:
    """Scores divided by ``sqrt(head_dim)``, as in scaled dot-product attention.

    .. math:: \\tilde S = S / \\sqrt{d}

    Examples
    --------
    >>> scale_scores([[8.0, 4.0]], 16)
    array([[2., 1.]])
    """
    head_dim = check_int("head_dim", head_dim, minimum=1)
    return check_array("scores", scores).astype(np.float64) / math.sqrt(head_dim)


def causal_softmax(
    scores, *, causal: bool = True, out: np.ndarray | None = None, first_row: int = 0
) -> np.ndarray:
    """Row-wise softmax of ``scores``; with ``causal``, key n > query m gets weight 0.

    .. math::

        a_{m,n} = \\frac{\\exp S_{m,n}}{\\sum_{j \\le m} \\exp S_{m,j}}
        \\; (n \\le m), \\qquad a_{m,n} = 0 \\; (n > m)

    Parameters
    ----------
    scores : array_like, shape (M, N)
        Finite. ``causal`` needs rows ``first_row .. first_row + M - 1`` of a square
        matrix (queries and keys at the same positions): ``first_row + M <= N``.
    causal : bool
        Mask the future (upper triangle).
    out : ndarray, optional
        float64 array of the same shape to write into; may be ``scores`` itself
        (in place, no second matrix).
    first_row : int
        Query position of the first row, >= 0: a long matrix can be done in row blocks.

    Returns
    -------
    weights : ndarray, shape (M, N), float64; every row sums to 1.
        Computed row block by row block with the row maximum subtracted (no overflow).

    Examples
    --------
    >>> causal_softmax([[0.0, 5.0], [0.0, 0.0]])
    array([[1. , 0. ],
           [0.5, 0.5]])
    >>> causal_softmax([[0.0, 0.0]], first_row=1)  # the second row of the matrix above
    array([[0.5, 0.5]])
    """
    s = check_array("scores", scores)
    if s.ndim != 2 or s.size == 0:
        raise ValueError(f"scores must be a non-empty 2-D array, got shape {s.shape}")
    m_rows, n_cols = s.shape
    first_row = check_int("first_row", first_row, minimum=0)
    if causal and first_row + m_rows > n_cols:
        raise ValueError(
            f"scores must be rows first_row .. first_row + M - 1 of a square matrix for"
            f" causal=True (first_row + M <= N), got shape {s.shape} and first_row={first_row}"
        )
    if out is None:
        out = np.empty(s.shape, dtype=np.float64)
    elif not isinstance(out, np.ndarray) or out.shape != s.shape or out.dtype != np.float64:
        raise ValueError(f"out must be a float64 ndarray of shape {s.shape}")
    cols = np.arange(n_cols)
    for start in range(0, m_rows, _CHUNK):
        block = out[start : start + _CHUNK]
        block[...] = s[start : start + _CHUNK]
        if causal:
            rows = first_row + np.arange(start, start + block.shape[0])[:, None]
            block[cols[None, :] > rows] = -np.inf
        block -= block.max(axis=1, keepdims=True)
        np.exp(block, out=block)
        block /= block.sum(axis=1, keepdims=True)
    return out


def prefix_entropies(scores, *, scale: float = 1.0) -> np.ndarray:
    """Entropy (nats) of the softmax over each prefix of one query's scores.

    .. math::

        H(L) = -\\sum_{r<L} p_r \\ln p_r, \\qquad
        p_r = \\frac{e^{\\lambda S_r}}{\\sum_{r'<L} e^{\\lambda S_{r'}}},
        \\qquad L = 1, \\ldots, n

    A query that sees its ``L`` nearest keys (scores ``S_0 .. S_{L-1}``) spreads its
    attention over ``exp(H(L))`` keys' worth: ``H = ln L`` when all scores are equal, 0
    when one key takes everything. ``lambda`` multiplies every score before the softmax:
    a temperature ``1 / lambda`` (YaRN's ``a ** 2``). Every ``L`` in one pass with running
    log-sum-exps (``numpy.logaddexp.accumulate``), so no prefix under- or overflows;
    within 1e-10 of a softmax done prefix by prefix for ``|lambda S| <= 50`` and
    ``n <= 10 000`` (the error grows with the spread of ``lambda S``).

    Parameters
    ----------
    scores : array_like, shape (n,)
        Finite scores, ``n >= 1``, in the order keys join (e.g. by distance ``r``).
    scale : float
        ``lambda > 0``.

    Returns
    -------
    entropy : ndarray, shape (n,), float64
        ``entropy[L - 1] = H(L)``.

    Examples
    --------
    >>> prefix_entropies([0.0, 0.0, 0.0, 0.0]).round(6)  # equal scores: ln L
    array([0.      , 0.693147, 1.098612, 1.386294])
    >>> float(prefix_entropies([50.0, 0.0], scale=2.0)[1]) < 1e-12  # one key takes all
    True
    """
    s = check_array("scores", scores)
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"scores must be a non-empty 1-D array, got shape {s.shape}")
    lam = check_real("scale", scale, greater=0.0)
    z = s.astype(np.float64) * lam
    log_z = np.logaddexp.accumulate(z)  # ln sum_{r<L} e^{z_r}
    # E_p[z] = z_min + sum p (z - z_min), the sum from a running log-sum-exp of
    # z + ln(z - z_min) (terms with z = z_min add nothing: ln 0 = -inf).
    low = z.min()
    with np.errstate(divide="ignore"):
        weighted = np.logaddexp.accumulate(z + np.log(z - low))
    mean = low + np.exp(weighted - log_z)
    return np.maximum(log_z - mean, 0.0)  # >= 0; rounding may give -1e-16


def toeplitz_residual(scores, shift: int = 1) -> float:
    """``max |S[m + s, n + s] - S[m, n]|``: zero when S depends on m - n only.

    With ``shift = 1`` it measures how far S is from a Toeplitz matrix. For content
    that repeats every P positions (a tiled sentence), ``shift = P`` compares the same
    pair of tokens at the same relative distance one period later.

    Parameters
    ----------
    scores : array_like, shape (M, N)
    shift : int
        ``1 <= shift < min(M, N)``.

    Returns
    -------
    float
        Computed by row chunks (temporaries of at most 512 rows).

    Examples
    --------
    >>> toeplitz_residual([[1.0, 2.0], [3.0, 1.0]])
    0.0
    >>> toeplitz_residual([[1.0, 2.0], [3.0, 4.0]])
    3.0
    """
    s = check_array("scores", scores)
    if s.ndim != 2:
        raise ValueError(f"scores must be a 2-D array, got shape {s.shape}")
    size = min(s.shape)
    if size < 2:
        raise ValueError(f"scores must be at least 2 x 2, got shape {s.shape}")
    shift = check_int("shift", shift, minimum=1, maximum=size - 1)
    rows = s.shape[0] - shift
    worst = 0.0
    for start in range(0, rows, _CHUNK):
        stop = min(start + _CHUNK, rows)
        diff = s[start + shift : stop + shift, shift:] - s[start:stop, :-shift]
        worst = max(worst, float(np.abs(diff).max()))
    return worst


def additive_scores(q, k, pe_q, pe_k=None) -> np.ndarray:
    """Scores with an additive position code: ``S[m, n] = <q_m + p_m, k_n + p'_n>``.

    .. math::

        S_{m,n} = q_m \\cdot k_n + q_m \\cdot p'_n + p_m \\cdot k_n + p_m \\cdot p'_n

    Only the last term of a sinusoidal code depends on ``m - n`` alone; the cross
    terms depend on the absolute positions.

    Parameters
    ----------
    q : array_like, shape (M, d)
    k : array_like, shape (N, d)
    pe_q : array_like, shape (M, d)
        Added to the queries (for example ``sinusoidal(M, d)``, or ``W_q p_m``).
    pe_k : array_like, shape (N, d), optional
        Added to the keys; default ``pe_q`` (needs M == N).

    Examples
    --------
    >>> additive_scores([[1.0, 0.0]], [[0.0, 1.0]], [[0.0, 1.0]])
    array([[2.]])
    """
    q = check_array("q", q, min_ndim=2)
    k = check_array("k", k, min_ndim=2)
    pe_q = check_array("pe_q", pe_q, min_ndim=2)
    pe_k = pe_q if pe_k is None else check_array("pe_k", pe_k, min_ndim=2)
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1]:
        raise ValueError(f"q and k must be 2-D with the same d, got {q.shape} and {k.shape}")
    if pe_q.shape != q.shape:
        raise ValueError(f"pe_q must have the shape of q {q.shape}, got {pe_q.shape}")
    if pe_k.shape != k.shape:
        raise ValueError(f"pe_k must have the shape of k {k.shape}, got {pe_k.shape}")
    return (q + pe_q).astype(np.float64) @ (k + pe_k).astype(np.float64).T


def relative_scores(
    q, k, distances, inv_freq, *, layout: str = "interleaved", attention_factor: float = 1.0
) -> np.ndarray:
    """``g(r)``: the RoPE score of q at position m and k at position n = m - r.

    .. math::

        g(r) = a^2 \\, \\mathrm{Re} \\sum_j q_j \\overline{k_j} \\, e^{i r \\theta_j}

    where ``a`` is the attention factor (YaRN multiplies cos and sin by ``a``).
    Equals ``rope_scores`` of the repeated vectors on its diagonals, without building
    the matrix.

    Parameters
    ----------
    q, k : array_like, shape (d,)
    distances : array_like, shape (R,)
        Values of ``r = m - n`` (any real numbers).
    inv_freq : array_like, shape (d // 2,)
    layout : {"interleaved", "split"}
        Which dimensions of q and k form a pair.
    attention_factor : float
        Finite, > 0.

    Examples
    --------
    >>> relative_scores([1.0, 0.0], [1.0, 0.0], [0.0, np.pi / 2], [1.0]).round(12)
    array([1., 0.])
    """
    q = check_array("q", q)
    k = check_array("k", k)
    if q.ndim != 1 or q.shape != k.shape or q.size % 2:
        raise ValueError(
            f"q and k must be 1-D of the same even length, got {q.shape} and {k.shape}"
        )
    layout = check_layout(layout)
    theta = _inv_freq(inv_freq, q.size)
    r = _distances(distances)
    factor = check_real("attention_factor", attention_factor, greater=0.0)
    half = q.size // 2
    if layout == "interleaved":
        qc, kc = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    else:
        qc, kc = q[:half] + 1j * q[half:], k[:half] + 1j * k[half:]
    h = qc * np.conj(kc)
    angles = np.multiply.outer(r, theta)
    return factor**2 * (np.cos(angles) @ h.real - np.sin(angles) @ h.imag)


def decay_bound(distances, inv_freq) -> np.ndarray:
    """Relative upper bound of RoFormer (section 3.4.3): ``(1 / (d/2)) sum_i |S_i(r)|``.

    .. math::

        S_j(r) = \\sum_{l=0}^{j-1} e^{i r \\theta_l}, \\qquad
        \\Big|\\sum_j h_j e^{i r \\theta_j}\\Big| \\le
        \\max_j |h_{j+1} - h_j| \\sum_{j=1}^{d/2} |S_j(r)|

    with ``h_j = (q_{2j} + i q_{2j+1})(k_{2j} - i k_{2j+1})`` of the unrotated q and k
    (the score is the real part of the left sum at r = m - n), and ``h_{d/2} = 0`` for
    the Abel summation. The curve is a ceiling on |score| per unit of
    ``(d/2) max_j |h_{j+1} - h_j|``, not a weight. The bound is ``(d/2 + 1) / 2`` at r = 0
    and decays, in a bumpy way, as the relative distance grows.

    Parameters
    ----------
    distances : array_like, shape (R,)
    inv_freq : array_like, shape (d/2,)

    Returns
    -------
    ndarray, shape (R,)

    Examples
    --------
    >>> decay_bound([0.0], [1.0, 0.1, 0.01])
    array([2.])
    """
    theta = _inv_freq(inv_freq)
    r = _distances(distances)
    out = np.empty(r.size)
    for start in range(0, r.size, _CHUNK):
        partial = np.cumsum(np.exp(1j * np.multiply.outer(r[start : start + _CHUNK], theta)), 1)
        out[start : start + _CHUNK] = np.abs(partial).mean(axis=1)
    return out


def same_content_decay(distances, inv_freq) -> np.ndarray:
    """Expected score of a random vector with itself at distance r, relative to r = 0.

    For ``x`` with independent standard normal entries,
    ``E <R(m theta) x, R(n theta) x> = 2 sum_j cos(r theta_j)``, and ``d`` at r = 0:

    .. math:: \\frac{E\\, g(r)}{E\\, g(0)} = \\frac{2}{d} \\sum_j \\cos(r \\theta_j)

    Examples
    --------
    >>> same_content_decay([0.0, np.pi], [1.0, 0.0])
    array([1., 0.])
    """
    theta = _inv_freq(inv_freq)
    r = _distances(distances)
    return np.cos(np.multiply.outer(r, theta)).mean(axis=1)


def rotations(inv_freq, length: int) -> np.ndarray:
    """Turns each pair makes over ``length`` positions: ``length * theta_j / (2 pi)``.

    A pair with fewer than one turn inside the training context never saw a full
    period (YaRN interpolates those; it keeps pairs with more than 32 turns).

    Examples
    --------
    >>> rotations([2 * np.pi, 0.01], 100)
    array([100.        ,   0.15915494])
    """
    theta = _inv_freq(inv_freq)
    length = check_int("length", length, minimum=1)
    return length * theta / (2 * np.pi)
