"""The RoPE page's score views, built by row blocks on several threads, against the
whole matrix computed with posenc in one piece."""

import math

import numpy as np
import pytest

import posenc
from posenc.attention import causal_softmax, toeplitz_residual
from ui.features.rope import data
from ui.plain.grids import downsample


def display_grid(z: np.ndarray, side: int = data.MAX_SIDE):
    """The reference display: block means of the whole matrix, float32."""
    grid = downsample(z, side, side)
    return grid._replace(z=np.asarray(grid.z, dtype=np.float32))


def whole_matrix_view(head_dim, base, length, layout, kind, text, seed, scale, view):
    c = data.make_content(head_dim, length, kind, text, seed)
    s = posenc.rope_scores(c.q, c.k, base=base, layout=layout)
    residual = toeplitz_residual(s, c.period) if c.period else None
    top = float(np.abs(s).max())
    if scale:
        s /= math.sqrt(head_dim)
    if view == "attention":
        causal_softmax(s, out=s)
    elif view == "attention_all":  # plain softmax over every key
        e = np.exp(s - s.max(axis=1, keepdims=True))
        s = e / e.sum(axis=1, keepdims=True)
    return display_grid(s), residual, top


# score_view's settings, in the order of each case below.
FIELDS = ("head_dim", "base", "length", "layout", "kind", "text", "seed", "scale", "view")
CASES = [
    (64, 1e4, 256, "interleaved", "random", "", 0, True, "scores"),
    (64, 1e4, 700, "split", "sentence", "the cat sat on the mat", 3, True, "attention"),
    (
        32,
        500.0,
        1000,
        "interleaved",
        "sentence",
        " ".join("abcdefghijklmnopqrstuvw"),
        2,
        False,
        "scores",
    ),
    (8, 100.0, 5, "interleaved", "same", "", 1, False, "attention"),
    (4, 100.0, 2, "split", "sentence", "x y z", 1, True, "scores"),  # no period within L
    (16, 1e4, 1500, "interleaved", "random", "", 7, True, "attention"),  # > 1 row per cell
    (8, 100.0, 5, "split", "same", "", 1, True, "attention_all"),
    (16, 1e4, 1500, "interleaved", "sentence", "to be or not", 7, False, "attention_all"),
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: f"L{a[2]}-{a[4]}-{a[8]}")
def test_block_by_block_view_equals_the_whole_matrix(args):
    view = data.score_view.__wrapped__(**dict(zip(FIELDS, args, strict=True)))
    grid, residual, top = whole_matrix_view(*args)
    np.testing.assert_allclose(view.grid.z, grid.z, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(view.grid.rows, grid.rows)
    np.testing.assert_array_equal(view.grid.cols, grid.cols)
    assert (view.grid.row_step, view.grid.col_step) == (grid.row_step, grid.col_step)
    assert view.max_abs == pytest.approx(top, rel=1e-12)
    if residual is None:
        assert view.residual is None
    else:
        assert view.residual == pytest.approx(residual, rel=1e-6, abs=1e-15)


@pytest.mark.parametrize(
    "args",
    [
        (16, 1e4, 600, "interleaved", "sentence", "one two three four five", 4, False),
        (32, 1e4, 1500, "split", "random", "", 2, True),  # P = 1, 8 rows per cell
        (8, 100.0, 3, "interleaved", "sentence", "a b c d", 1, False),  # no period within L
    ],
    ids=["sentence", "random-scaled", "no-period"],
)
def test_compare_views_use_the_three_score_formulas(args):
    # (a) repeats with the content's period: its view is built from one period of q, k
    none, additive, rope = data.compare_views.__wrapped__(*args)
    head_dim, base, length, layout = args[:4]
    c = data.make_content(head_dim, length, *args[4:7])
    pe = posenc.sinusoidal(length, head_dim, base)
    pe_q, pe_k = (pe, pe) if c.w_q is None else (pe @ c.w_q.T, pe @ c.w_k.T)
    expected = {
        "none": c.q @ c.k.T,
        "additive": posenc.additive_scores(c.q, c.k, pe_q, pe_k),
        "rope": posenc.rope_scores(c.q, c.k, base=base, layout=layout),
    }
    factor = 1 / math.sqrt(head_dim) if args[7] else 1.0
    for got, s in zip((none, additive, rope), expected.values(), strict=True):
        np.testing.assert_allclose(
            got.grid.z, display_grid(s * factor, data.COMPARE_SIDE).z, rtol=1e-6, atol=1e-6
        )
        assert got.max_abs == pytest.approx(float(np.abs(s).max()), rel=1e-12)
        if c.period is None:
            assert got.residual is None
            continue
        assert got.residual == pytest.approx(toeplitz_residual(s, c.period), rel=1e-6, abs=1e-13)


@pytest.mark.parametrize("work", [data.LAYOUT_WORK, 2**18], ids=["all-rows", "capped"])
@pytest.mark.parametrize("cores", [1, 2, 4])
@pytest.mark.parametrize(
    "args",
    [
        (32, 1e4, 700, "random", "", 0),
        (16, 500.0, 300, "sentence", "to be or not to be", 3),
        (8, 1e4, 100, "random", "", 1),  # one block: more threads than blocks
    ],
    ids=["random-700", "sentence-300", "random-100"],
)
def test_layout_check_equals_the_whole_matrices(args, cores, work, monkeypatch):
    # Vectors rotated and score rows checked in shares per thread of posenc's pool,
    # reused buffers: the same maxima as whole matrices (on every step-th query row when
    # capped), whatever the number of threads.
    monkeypatch.setattr(data, "LAYOUT_WORK", work)
    head_dim, base, length = args[:3]
    posenc.set_max_threads(cores)
    try:
        check = data.layout_check.__wrapped__(*args)
    finally:
        posenc.set_max_threads(None)
    step = check["step"]
    assert step == max(1, -(-length * length * head_dim // work))
    assert check["rows"] == len(range(0, length, step))
    c = data.make_content(head_dim, length, *args[3:])
    perm = posenc.split_permutation(head_dim)
    s_i = posenc.rope_scores(c.q, c.k, base=base, layout="interleaved")[::step]
    s_s = posenc.rope_scores(c.q[:, perm], c.k[:, perm], base=base, layout="split")[::step]
    s_u = posenc.rope_scores(c.q, c.k, base=base, layout="split")[::step]
    rq_i = posenc.rope(c.q, base=base, layout="interleaved")
    rq_s = posenc.rope(c.q[:, perm], base=base, layout="split")
    assert check["unpermuted"] == pytest.approx(float(np.abs(s_u - s_i).max()), rel=1e-12)
    assert check["permuted"] == pytest.approx(float(np.abs(s_s - s_i).max()), abs=1e-12)
    assert check["vectors"] == float(np.abs(rq_i[:, perm] - rq_s).max())


@pytest.mark.parametrize(
    ("head_dim", "length", "step"),
    [(256, 4096, 2), (128, 4096, 1), (256, 2896, 1), (256, 2897, 2), (64, 256, 1), (4, 2, 1)],
)
def test_layout_check_steps_only_at_the_top_of_the_range(head_dim, length, step):
    assert data.layout_step(head_dim, length) == step


EXTENSION = [(64, 10000.0, 4.0, 512), (64, 100.0, 4.0, 1024), (128, 500000.0, 8.0, 256)]


@pytest.mark.parametrize(("head_dim", "base", "factor", "orig"), EXTENSION)
def test_extension_view_draws_each_methods_posenc_frequencies(head_dim, base, factor, orig):
    ext = data.extension_view(
        head_dim=head_dim, base=base, layout="interleaved", kind="random", text="", seed=0,
        scaling="yarn", factor=factor, original=orig, scale=True,
    )  # fmt: skip
    context = data.extended_context(factor, orig)
    for code, scaling in data.SCALINGS.items():
        expected, _ = posenc.rope_frequencies(
            head_dim, base, scaling=scaling, factor=factor, original_context=orig, context=context
        )
        np.testing.assert_array_equal(ext["inv_freq"][code], expected)
        turns = ext["turns"][code]
        np.testing.assert_allclose(turns, orig * expected / (2 * np.pi), rtol=1e-15)


@pytest.mark.parametrize(("head_dim", "base", "factor", "orig"), EXTENSION)
def test_pair_counts_sort_every_pair_once_by_its_turns(head_dim, base, factor, orig):
    ext = data.extension_view(
        head_dim=head_dim, base=base, layout="interleaved", kind="random", text="", seed=0,
        scaling="llama3", factor=factor, original=orig, scale=True,
    )  # fmt: skip
    counts, half = ext["counts"], head_dim // 2
    assert all(sum(c.values()) == half for c in counts.values())
    assert counts["none"] == {"kept": half, "blended": 0, "slowed": 0, "beyond": 0}
    assert counts["linear"] == {"kept": 0, "blended": 0, "slowed": half, "beyond": 0}
    # Llama 3.1, read off plain RoPE's turns: > 4 kept, < 1 slowed s times, else blended.
    turns = ext["turns"]["none"]
    fast, slow = int((turns > 4).sum()), int((turns < 1).sum())
    assert counts["llama3"] == {
        "kept": fast,
        "blended": half - fast - slow,
        "slowed": slow,
        "beyond": 0,
    }
    # NTK turns pair 0 at 1 rad per position whatever the base; at s L0 > L0 its slowest
    # pairs slow down more than s times (s^2 - s + 1 at the last pair).
    assert counts["ntk"]["kept"] == 1 and counts["ntk"]["beyond"] > 0


def test_pair_counts_at_factor_one_keep_every_pair():
    ext = data.extension_view(
        head_dim=32, base=10000.0, layout="interleaved", kind="random", text="", seed=0,
        scaling="ntk", factor=1.0, original=512, scale=True,
    )  # fmt: skip
    assert all(
        c == {"kept": 16, "blended": 0, "slowed": 0, "beyond": 0} for c in ext["counts"].values()
    )


def _old_animation_positions(m, n, steps=data.ANIMATION_STEPS, top=4095):
    """The rule before frames were kept in range (commit 1a69bf7), for the cases it got right."""
    together = 1 if max(m, n) + 2 * steps <= top else -1
    frames = [(m + together * s, n + together * s) for s in range(steps + 1)]
    m1, n1 = frames[-1]
    alone = 1 if m1 + steps <= top else -1
    return frames + [(m1 + alone * s, n1) for s in range(1, steps + 1)]


@pytest.mark.parametrize(
    ("m", "n"),
    [(0, 0), (5, 3), (4095, 0), (0, 4095), (4090, 3), (3, 4090), (5, 4093), (4093, 5),
     (2048, 2040), (4095, 4095), (11, 4084), (4084, 11)],
)  # fmt: skip
def test_animation_frames_stay_on_the_position_axis(m, n):
    """Every frame's m and n lie in 0 .. 4095 (the pair view's slider range): at m = 4090,
    n = 3 the old rule moved n to -9. Phase one keeps m - n, phase two keeps n, and where
    the old rule stayed in range the frames are the same."""
    frames = data.animation_positions(m, n)
    steps = data.ANIMATION_STEPS
    assert len(frames) == 2 * steps + 1 and frames[0] == (m, n)
    assert all(0 <= a <= 4095 and 0 <= b <= 4095 for a, b in frames), frames
    assert {a - b for a, b in frames[: steps + 1]} == {m - n}
    assert {b for _, b in frames[steps:]} == {frames[steps][1]}
    old = _old_animation_positions(m, n)
    if all(0 <= a <= 4095 and 0 <= b <= 4095 for a, b in old):
        assert frames == old
    else:
        assert len(set(frames)) > 1  # it still moves
