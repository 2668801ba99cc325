"""posenc.binary: the counter of seed 001."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import posenc


def test_position_5_in_4_bits_is_0101():
    assert_array_equal(posenc.binary(16, 4)[5], [0, 1, 0, 1])


def test_counter_0_to_15_reads_back_as_integers():
    codes = posenc.binary(16)
    assert codes.shape == (16, 4)
    assert_array_equal(codes @ (2 ** np.arange(3, -1, -1)), np.arange(16))


@pytest.mark.parametrize(
    ("length", "bits"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (1024, 10), (1025, 11)]
)
def test_default_bits_are_the_fewest_that_number_every_position(length, bits):
    assert posenc.binary(length).shape == (length, bits)


def test_lowest_bit_flips_fastest():
    codes = posenc.binary(16)
    flips = np.abs(np.diff(codes, axis=0)).sum(axis=0)
    assert_array_equal(flips, [1, 3, 7, 15])


def test_seven_to_eight_flips_four_bits():
    codes = posenc.binary(16)
    assert np.abs(codes[8] - codes[7]).sum() == 4


def test_too_few_bits_is_an_error_naming_bits():
    with pytest.raises(ValueError, match="bits"):
        posenc.binary(17, bits=4)


def test_bad_length_is_an_error_naming_length():
    with pytest.raises(ValueError, match="length"):
        posenc.binary(0)
