"""posenc.sinusoidal, frequencies, wavelengths: agreement with peers and exactness."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from support.peers import peer, settings

import posenc


def exact(positions, d_model, base=10000.0):
    """Reference in extended precision (x87 long double) for the interleaved layout."""
    omega = posenc.frequencies(d_model, base).astype(np.longdouble)
    angles = np.asarray(positions, dtype=np.longdouble)[:, None] * omega[None, :]
    table = np.empty((len(positions), d_model), dtype=np.longdouble)
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table


@pytest.mark.parametrize(
    "key", ["torch_pe_f64_L4_d4", "torch_pe_f64_L50_d128", "torch_pe_f64_L100_d512"]
)
def test_matches_pytorch_tutorial_code_in_float64(key):
    s = settings()[key]
    assert_allclose(posenc.sinusoidal(s["L"], s["d"], s["base"]), peer(key), rtol=0, atol=1e-12)


@pytest.mark.parametrize("key", ["torch_pe_f32_L50_d128", "torch_pe_f32_L100_d512"])
def test_float32_agrees_with_pytorch_float32_to_its_rounding(key):
    s = settings()[key]
    ours = posenc.sinusoidal(s["L"], s["d"], s["base"], dtype=np.float32)
    assert ours.dtype == np.float32
    # torch forms the angles in float32 (error ~ L * 6e-8); ours is one rounding away.
    assert np.abs(ours - peer(key)).max() < s["L"] * 2e-7


def test_tutorial_table_i_am_a_robot():
    assert_allclose(posenc.sinusoidal(4, 4, base=100.0), peer("tutorial_pe_L4_d4_n100"), atol=1e-15)


def test_split_layout_matches_tensorflow_tutorial():
    assert_allclose(
        posenc.sinusoidal(50, 128, layout="split"), peer("tf_pe_L50_d128"), rtol=0, atol=1e-12
    )


def test_interleaved_matches_older_tensorflow_tutorial():
    assert_allclose(posenc.sinusoidal(50, 128), peer("tf_old_pe_L50_d128"), rtol=0, atol=1e-12)


def test_split_is_interleaved_with_columns_permuted():
    table = posenc.sinusoidal(33, 10, base=77.0)
    split = posenc.sinusoidal(33, 10, base=77.0, layout="split")
    assert_array_equal(table[:, posenc.split_permutation(10)], split)


@pytest.mark.parametrize("length", [1, 2, 3, 15, 16, 17, 99, 100, 101, 1000])
def test_every_length_matches_the_formula(length):
    # Block sizes and tails differ with the length; each must be exact.
    assert np.abs(posenc.sinusoidal(length, 6) - exact(np.arange(length), 6)).max() < 1e-14


def test_float64_error_at_8192_positions_is_below_1e_11():
    table = posenc.sinusoidal(8192, 64)
    assert np.abs(table - exact(np.arange(8192), 64)).max() < 1e-11


def test_float32_error_up_to_position_100000_is_below_1e_6():
    table = posenc.sinusoidal(2048, 64, offset=100_000 - 2048, dtype=np.float32)
    error = np.abs(table - exact(np.arange(100_000 - 2048, 100_000), 64)).max()
    assert error < 1e-6
    # The seeds' torch code in float32 drifts far more at that position.
    torch_row = peer("torch_pe_f32_at100000_d64")
    assert np.abs(torch_row - exact([99_999], 64)[0]).max() > 1e-4
    assert np.abs(table[-1] - exact([99_999], 64)[0]).max() < 1e-6


def test_offset_shifts_rows():
    assert_allclose(posenc.sinusoidal(5, 8, offset=3), posenc.sinusoidal(8, 8)[3:], atol=1e-15)


def test_fractional_and_negative_offsets():
    table = posenc.sinusoidal(4, 4, offset=-1.5)
    assert_allclose(table, np.asarray(exact(np.arange(4) - 1.5, 4), dtype=float), atol=1e-15)


def test_first_row_is_sin0_cos0():
    assert_array_equal(posenc.sinusoidal(1, 8)[0], [0, 1, 0, 1, 0, 1, 0, 1])


def test_frequencies_and_wavelengths_are_reciprocal_geometric_progressions():
    omega = posenc.frequencies(512)
    assert omega[0] == 1.0
    assert_allclose(omega[1:] / omega[:-1], 10000.0 ** (-2 / 512), rtol=1e-13)
    assert_allclose(posenc.wavelengths(512) * omega, 2 * np.pi, rtol=1e-15)
    assert_allclose(posenc.wavelengths(2, base=9.0), [2 * np.pi])


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"length": 0}, "length"),
        ({"length": 2.5}, "length"),
        ({"length": True}, "length"),
        ({"d_model": 7}, "d_model"),
        ({"d_model": 0}, "d_model"),
        ({"base": 1.0}, "base"),
        ({"base": float("nan")}, "base"),
        ({"base": float("inf")}, "base"),
        ({"layout": "sideways"}, "layout"),
        ({"offset": float("nan")}, "offset"),
        ({"dtype": np.int32}, "dtype"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, name):
    arguments = {"length": 4, "d_model": 4, **kwargs}
    with pytest.raises(ValueError, match=name):
        posenc.sinusoidal(**arguments)


def test_length_given_as_integral_float_is_accepted():
    assert posenc.sinusoidal(4.0, 4).shape == (4, 4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_no_entry_leaves_minus_one_to_one_even_at_the_largest_size(dtype):
    # Regression: products of two rounded unit factors reached 1.0000001 in float32.
    assert np.abs(posenc.sinusoidal(8192, 4096, dtype=dtype)).max() <= 1.0
