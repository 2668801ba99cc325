"""ui.shared.data_cache: st.cache_data keyed by one digest of the arguments (issue #32)."""

from __future__ import annotations

import threading

import numpy as np
import streamlit as st

from ui.shared import data_cache


def counted():
    calls = []

    @data_cache.cache_data(max_entries=4)
    def square(x, *, scale=1.0):
        calls.append(x)
        return np.asarray(x, dtype=float) ** 2 * scale

    @data_cache.cache_data(max_entries=4)
    def cube(x, *, scale=1.0):
        calls.append(("cube", x))
        return np.asarray(x, dtype=float) ** 3 * scale

    return square, cube, calls


def test_a_result_is_computed_once_per_arguments_and_copied_to_each_caller():
    st.cache_data.clear()
    square, _, calls = counted()
    first = square([3])
    first[0] = -1  # a caller's change stays in its copy
    assert square([3])[0] == 9 and calls == [[3]]
    assert square([3.0])[0] == 9 and calls == [[3], [3.0]]  # 3 and 3.0 are told apart
    assert square([3], scale=2.0)[0] == 18 and len(calls) == 3


def test_arrays_are_keyed_by_content_dtype_and_shape():
    st.cache_data.clear()
    square, _, calls = counted()
    a = np.arange(4.0)
    square(a)
    square(a.copy())
    assert len(calls) == 1
    square(a.astype(np.float32))
    square(a.reshape(2, 2))
    b = a.copy()
    b[3] = np.nextafter(3.0, 4.0)  # one ulp
    square(b)
    assert len(calls) == 4


def test_each_function_has_its_own_cache_and_clear_empties_it():
    st.cache_data.clear()
    square, cube, calls = counted()
    assert square(2) == 4 and cube(2) == 8
    assert calls == [2, ("cube", 2)]
    square.clear()
    square(2)
    cube(2)
    assert calls == [2, ("cube", 2), 2]
    st.cache_data.clear()
    cube(2)
    assert len(calls) == 4


def test_an_argument_that_cannot_be_keyed_runs_the_function_uncached():
    calls = []

    @data_cache.cache_data(max_entries=2)
    def locked(lock, n):
        calls.append(n)
        return n

    lock = threading.Lock()
    assert locked(lock, 1) == locked(lock, 1) == 1
    assert calls == [1, 1]
