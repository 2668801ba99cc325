"""posenc.score_views: score matrices reduced by row blocks on the shared pool, against
the whole matrix computed in one piece."""

from __future__ import annotations

import math

import numpy as np
import pytest

import posenc
from posenc.attention import causal_softmax, toeplitz_residual
from posenc.score_views import layout_differences, score_block_means

RNG = np.random.default_rng(25)


@pytest.fixture
def bound():
    """Set the thread bound for one test, restore the default after it."""
    yield posenc.set_max_threads
    posenc.set_max_threads(None)


def whole_means(left, right, row_step, head_dim=None, softmax=None):
    """The reference: the whole S, scaled, softmaxed, then the mean of each row block."""
    s = left @ right.T
    if head_dim:
        s = s / math.sqrt(head_dim)
    if softmax:
        s = causal_softmax(s, causal=softmax == "causal")
    starts = np.arange(0, s.shape[0], row_step)
    sizes = np.diff(np.append(starts, s.shape[0]))
    return np.add.reduceat(s, starts, axis=0) / sizes[:, None], left @ right.T


@pytest.mark.parametrize("softmax", [None, "causal", "all"])
@pytest.mark.parametrize(("length", "row_step"), [(700, 1), (700, 3), (300, 7), (5, 5)])
def test_block_means_equal_those_of_the_whole_matrix(length, row_step, softmax):
    left, right = RNG.standard_normal((2, length, 16))
    found = score_block_means(left, right, row_step, period=2, head_dim=16, softmax=softmax)
    means, s = whole_means(left, right, row_step, 16, softmax)
    assert found.means.shape == (-(-length // row_step), length)
    np.testing.assert_allclose(found.means, means, rtol=1e-12, atol=1e-15)
    assert found.max_abs == float(np.abs(s).max())
    assert found.residual == pytest.approx(toeplitz_residual(s, 2), rel=1e-12)


def test_without_period_there_is_no_residual_and_no_scaling_without_head_dim():
    left, right = RNG.standard_normal((2, 200, 8))
    found = score_block_means(left, right, 4)
    means, _ = whole_means(left, right, 4)
    assert found.residual is None
    np.testing.assert_allclose(found.means, means, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("period", "row_step"), [(1, 1), (3, 4), (7, 12), (700, 5)])
def test_periodic_factors_give_the_whole_means_from_one_period(period, row_step):
    # Tiled rows: S[m, n] = s[m mod P, n mod P], so the residual at P is exactly 0 and
    # the means come from the P x P matrix (checked against all of S).
    q, k = RNG.standard_normal((2, period, 8))
    left, right = (np.tile(x, (-(-700 // period), 1))[:700] for x in (q, k))
    found = score_block_means(left, right, row_step, period=period, head_dim=8)
    means, s = whole_means(left, right, row_step, 8)
    np.testing.assert_allclose(found.means, means, rtol=1e-12, atol=1e-14)
    assert found.residual == 0.0
    assert found.max_abs == pytest.approx(float(np.abs(s).max()), rel=1e-14)


def test_a_factor_that_does_not_repeat_is_not_taken_for_periodic():
    q = np.tile(RNG.standard_normal((3, 8)), (100, 1))
    k = q.copy()
    k[150, 0] += 1e-9  # one entry off: the residual must see it
    found = score_block_means(q, k, 1, period=3)
    assert found.residual == pytest.approx(toeplitz_residual(q @ k.T, 3), rel=1e-6)
    assert found.residual > 0


@pytest.mark.parametrize("softmax", [None, "causal"])
def test_block_means_do_not_depend_on_the_number_of_threads(bound, softmax):
    left, right = RNG.standard_normal((2, 1000, 32))
    bound(1)
    single = score_block_means(left, right, 3, period=5, softmax=softmax)
    bound(4)
    shared = score_block_means(left, right, 3, period=5, softmax=softmax)
    np.testing.assert_array_equal(shared.means, single.means)
    assert (shared.residual, shared.max_abs) == (single.residual, single.max_abs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"row_step": 0}, "row_step must be an integer >= 1 and <= 10"),
        ({"row_step": 11}, "row_step must be an integer >= 1 and <= 10"),
        ({"period": 0}, "period must be an integer >= 1 and <= 10"),
        ({"period": 11}, "period must be an integer >= 1 and <= 10"),
        ({"head_dim": 0}, "head_dim must be an integer >= 1"),
        ({"softmax": "causal_all"}, "softmax must be one of"),
        ({"right": np.ones((10, 3))}, r"left and right must be 2-D of the same shape"),
        ({"left": np.ones(10)}, r"left and right must be 2-D of the same shape"),
        ({"left": np.full((10, 4), np.nan)}, "left must contain only finite numbers"),
    ],
)
def test_score_block_means_names_the_bad_parameter_and_its_range(kwargs, message):
    args = {"left": np.ones((10, 4)), "right": np.ones((10, 4))} | kwargs
    with pytest.raises(ValueError, match=message):
        score_block_means(**args)


# ---------------------------------------------------------------- layouts


def whole_layout_differences(q, k, base, step):
    perm = posenc.split_permutation(q.shape[1])
    s_i = posenc.rope_scores(q, k, base=base, layout="interleaved")[::step]
    s_s = posenc.rope_scores(q[:, perm], k[:, perm], base=base, layout="split")[::step]
    s_u = posenc.rope_scores(q, k, base=base, layout="split")[::step]
    vectors = posenc.rope(q, base=base)[:, perm] - posenc.rope(
        q[:, perm], base=base, layout="split"
    )
    return float(np.abs(s_s - s_i).max()), float(np.abs(s_u - s_i).max()), np.abs(vectors).max()


@pytest.mark.parametrize(("length", "step"), [(700, 1), (700, 3), (100, 1), (1, 1)])
def test_layout_differences_equal_those_of_the_whole_matrices(length, step):
    q, k = RNG.standard_normal((2, length, 16))
    found = layout_differences(q, k, 500.0, step=step)
    permuted, unpermuted, vectors = whole_layout_differences(q, k, 500.0, step)
    assert found.rows == len(range(0, length, step))
    assert found.permuted == pytest.approx(permuted, abs=1e-12)
    assert found.permuted < 1e-12  # the layouts are one model, columns reordered
    assert found.unpermuted == pytest.approx(unpermuted, rel=1e-12)
    assert found.vectors == vectors


def test_layout_differences_do_not_depend_on_the_number_of_threads(bound):
    q, k = RNG.standard_normal((2, 1100, 8))
    bound(1)
    single = layout_differences(q, k, step=2)
    bound(3)
    assert layout_differences(q, k, step=2) == single
    assert single.unpermuted > 0.1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"q": np.ones((6, 3)), "k": np.ones((6, 3))}, "even number of columns"),
        ({"k": np.ones((5, 4))}, "q and k must be 2-D of the same shape"),
        ({"step": 0}, "step must be an integer >= 1 and <= 6"),
        ({"step": 7}, "step must be an integer >= 1 and <= 6"),
        ({"base": 1.0}, "base must be finite and > 1"),
    ],
)
def test_layout_differences_name_the_bad_parameter_and_its_range(kwargs, message):
    args = {"q": np.ones((6, 4)), "k": np.ones((6, 4)), "base": 1e4, "step": 1} | kwargs
    with pytest.raises(ValueError, match=message):
        layout_differences(args.pop("q"), args.pop("k"), args.pop("base"), **args)
