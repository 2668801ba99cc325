"""posenc.frameworks against the peers' own tables (tests/peers/peer_values.npz)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.peers import peer

from posenc import sinusoidal
from posenc.frameworks import (
    FRAMEWORKS,
    NATIVE_LAYOUT,
    framework_frequencies,
    framework_table,
    max_abs_difference,
    max_abs_differences,
)
from posenc.rotation import split_permutation

# Framework -> peer key of the same table in float64.
PEER_KEYS = {
    "paper": "torch_pe_f64_L50_d128",
    "tf": "tf_pe_L50_d128",
    "tf_old": "tf_old_pe_L50_d128",
    "t2t": "t2t_pe_L50_d128",
    "fairseq": "fairseq_pe_L50_d128",
}
F32_ULP = 2.0**-23  # float32 spacing at 1


def setting(key: str) -> dict:
    return json.loads(str(peer("settings_json")))[key]


@pytest.mark.parametrize("name", sorted(PEER_KEYS))
def test_framework_table_matches_the_peer_table(name):
    key = PEER_KEYS[name]
    s = setting(key)
    ours = framework_table(name, s["L"], s["d"], s["base"])
    assert s["layout"] == NATIVE_LAYOUT[name]
    assert ours.shape == peer(key).shape
    np.testing.assert_allclose(ours, peer(key), rtol=0, atol=1e-12)


def test_paper_rounded_to_float32_is_the_torch_float32_buffer_within_float32_rounding():
    s = setting("torch_pe_f32_L50_d128")
    ours = framework_table("paper", s["L"], s["d"], s["base"])
    np.testing.assert_allclose(ours, peer("torch_pe_f32_L50_d128"), rtol=0, atol=1e-5)


def _float32_drift_bound(positions: np.ndarray) -> np.ndarray:
    # The angle p * omega is rounded to float32 (and exp may differ by one ulp between
    # libraries): an error of about p * 2^-23 at most, plus the rounding of sin/cos.
    return (positions + 1.0) * F32_ULP + 2 * F32_ULP


@pytest.mark.parametrize("key", ["torch_pe_f32_L50_d128", "torch_pe_f32_L100_d512"])
def test_torch32_follows_the_torch_float32_buffer_within_its_float32_error(key):
    s = setting(key)
    ours = framework_table("torch32", s["L"], s["d"], s["base"])
    theirs = peer(key).astype(np.float64)
    bound = _float32_drift_bound(np.arange(s["L"], dtype=np.float64))[:, None]
    assert np.all(np.abs(ours - theirs) <= bound)
    # Most entries are torch's bit for bit: each float32 step is rounded correctly, and
    # torch's exp / sin / cos are off by an ulp only now and then (94-95% equal here;
    # numpy's own float32 exp and sin gave 67-68%).
    assert np.mean(ours == theirs) > 0.9
    # ... and it is really float32 arithmetic, not the exact table.
    assert max_abs_difference("torch32", s["L"], s["d"], s["base"]) > 1e-7


@pytest.mark.parametrize("key", ["torch_pe_f32_L50_d128", "torch_pe_f32_L100_d512"])
def test_torch32_difference_from_the_paper_is_torchs_own(key):
    """The number the Frameworks tab shows for torch32, against torch's own buffer (it
    was 1.6% and 31% off with numpy's float32 exp and sin)."""
    s = setting(key)
    f64 = peer(key.replace("_f32_", "_f64_"))
    theirs = np.abs(peer(key).astype(np.float64) - f64).max()
    ours = max_abs_difference("torch32", s["L"], s["d"], s["base"])
    assert ours == pytest.approx(theirs, rel=1e-3)
    both = max_abs_differences(s["L"], s["d"], s["base"], names=("torch32",))["torch32"]
    assert both == ours


@pytest.mark.parametrize("key", ["torch_pe_f32_at8192_d512", "torch_pe_f32_at100000_d64"])
def test_torch32_reproduces_the_float32_drift_of_torch_far_out(key):
    s = setting(key)
    row = framework_table("torch32", 1, s["d"], s["base"], offset=s["position"])[0]
    exact = sinusoidal(1, s["d"], s["base"], offset=s["position"])[0]
    bound = _float32_drift_bound(np.float64(s["position"]))
    assert np.abs(row - peer(key)).max() <= bound
    ours, theirs = np.abs(row - exact).max(), s["max_abs_err_vs_float64_formula"]
    # Same order of magnitude as torch's own drift (both far above float64 rounding).
    assert theirs / 4 < ours < theirs * 4


def test_t2t_differs_from_the_paper_as_the_peers_do():
    """The on-screen number for tensor2tensor, checked with the peers' own tables."""
    paper_split = peer("torch_pe_f64_L50_d128")[:, split_permutation(128)]
    expected = np.abs(peer("t2t_pe_L50_d128") - paper_split).max()
    assert max_abs_difference("t2t", 50, 128) == pytest.approx(expected, abs=1e-12)
    assert expected > 0.25  # exponent i/(d/2 - 1): a real change, not rounding


def test_tf_differs_from_the_paper_only_by_column_order():
    as_stored = np.abs(peer("tf_pe_L50_d128") - peer("torch_pe_f64_L50_d128")).max()
    assert max_abs_difference("tf", 50, 128) == 0.0
    assert max_abs_difference("tf", 50, 128, aligned=False) == pytest.approx(as_stored, abs=1e-12)


def test_fairseq_needs_d_model_at_least_4():
    with pytest.raises(ValueError, match="d_model"):
        framework_table("fairseq", 3, 2)
    assert framework_table("t2t", 3, 2).shape == (3, 2)  # t2t guards with max(d/2 - 1, 1)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        (dict(name="pytorch", length=3, d_model=4), "name"),
        (dict(name="paper", length=0, d_model=4), "length"),
        (dict(name="t2t", length=3, d_model=5), "d_model"),
        (dict(name="t2t", length=3, d_model=4, base=1.0), "base"),
        (dict(name="t2t", length=3, d_model=4, layout="rows"), "layout"),
        (dict(name="torch32", length=3, d_model=4, offset=-1), "offset"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        framework_table(**kwargs)


sizes = st.tuples(
    st.integers(1, 60),
    st.integers(2, 40).map(lambda h: 2 * h),
    st.floats(1.5, 1e6),
)


@settings(max_examples=60, deadline=None)
@given(size=sizes, name=st.sampled_from(FRAMEWORKS))
def test_a_layout_is_a_column_permutation_of_the_other(size, name):
    length, d_model, base = size
    inter = framework_table(name, length, d_model, base, layout="interleaved")
    split = framework_table(name, length, d_model, base, layout="split")
    np.testing.assert_array_equal(inter[:, split_permutation(d_model)], split)


@settings(max_examples=60, deadline=None)
@given(size=sizes, name=st.sampled_from(FRAMEWORKS), cut=st.integers(0, 60))
def test_a_table_built_in_two_pieces_equals_the_whole(size, name, cut):
    length, d_model, base = size
    cut = min(cut, length - 1)
    whole = framework_table(name, length, d_model, base)
    pieces = [framework_table(name, cut, d_model, base)] if cut else []
    pieces.append(framework_table(name, length - cut, d_model, base, offset=cut))
    np.testing.assert_allclose(np.vstack(pieces), whole, rtol=0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(size=sizes)
def test_t2t_is_the_paper_with_base_raised_to_half_over_half_minus_one(size):
    length, d_model, base = size
    half = d_model // 2
    effective = base ** (half / (half - 1))
    np.testing.assert_allclose(
        framework_table("t2t", length, d_model, base, layout="interleaved"),
        sinusoidal(length, d_model, effective),
        rtol=0,
        atol=1e-9,
    )


@settings(max_examples=60, deadline=None)
@given(size=sizes, name=st.sampled_from(["paper", "tf", "tf_old"]))
def test_paper_tf_and_old_tf_share_every_channel(size, name):
    length, d_model, base = size
    assert max_abs_difference(name, length, d_model, base) == 0.0


@settings(max_examples=40, deadline=None)
@given(size=sizes)
def test_torch32_error_stays_within_float32_rounding_of_the_angle(size):
    length, d_model, base = size
    error = np.abs(
        framework_table("torch32", length, d_model, base) - sinusoidal(length, d_model, base)
    )
    bound = _float32_drift_bound(np.arange(length, dtype=np.float64))[:, None]
    assert np.all(error <= bound)


def test_frequencies_of_t2t_end_at_one_over_base():
    omega = framework_frequencies("t2t", 128, 10000.0)
    assert omega[0] == 1.0 and omega[-1] == pytest.approx(1e-4, rel=1e-14)
    assert framework_frequencies("paper", 128, 10000.0)[-1] > 1e-4  # the paper stops short


@settings(max_examples=40, deadline=None)
@given(size=sizes)
def test_the_one_pass_summary_equals_each_difference_on_its_own(size):
    length, d_model, base = size
    summary = max_abs_differences(length, d_model, base)
    for name in FRAMEWORKS:
        assert summary[name] == pytest.approx(
            max_abs_difference(name, length, d_model, base), abs=1e-15
        )


def test_the_summary_marks_fairseq_unavailable_at_d_model_2():
    summary = max_abs_differences(10, 2)
    assert summary["fairseq"] is None and summary["t2t"] < 1e-15  # one pair: omega_0 = 1
