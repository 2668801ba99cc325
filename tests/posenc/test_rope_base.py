"""posenc.rope_base: Men et al.'s B(m) and the smallest base a context needs (issue 31 §1).

B(m) is checked against torch's float64 sums (tests/peers/make_rope_config_peer_values.py);
the bound against its definition, evaluated term by term here: safe at the bound, failing
just below it and at every base below it, and not an interval above it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.peers import PeerFile

import posenc
from posenc import rope_base as module
from posenc import (
    rope_base_bounds,
    rope_base_failure,
    rope_base_lower_bound,
    rope_base_sums,
    set_max_threads,
)

PEERS = PeerFile("rope_config_peer_values.npz")
STORED = json.loads(module.TABLE.read_text(encoding="utf-8"))


def sums(base: float, context: int, head_dim: int) -> np.ndarray:
    """The definition, term by term: sum_i cos(m b^(-2i/d)) for m = 0..context."""
    theta = base ** -(np.arange(0, head_dim, 2) / head_dim)
    return np.cos(np.multiply.outer(np.arange(context + 1.0), theta)).sum(axis=1)


def first_failure(base: float, context: int, head_dim: int) -> int | None:
    bad = np.flatnonzero(sums(base, context, head_dim) < 0)
    return int(bad[0]) if bad.size else None


@pytest.fixture
def live(monkeypatch):
    """The bound computed by the sweep alone, without the stored table."""
    monkeypatch.setattr(module, "_table", lambda: {})
    module._lower_bound.cache_clear()
    yield
    module._lower_bound.cache_clear()


@pytest.mark.parametrize("key", PEERS.keys("torch_base_sums_b"))
def test_sums_equal_torch(key):
    s = PEERS.settings()[key]
    ours = rope_base_sums(s["base"], s["context"], s["head_dim"])
    np.testing.assert_allclose(ours, PEERS.peer(key), rtol=0, atol=1e-9)


@pytest.mark.parametrize("key", PEERS.keys("torch_base_sums_sampled_"))
def test_sums_over_a_million_offsets_equal_torch(key):
    s = PEERS.settings()[key]
    ours = rope_base_sums(s["base"], s["context"], s["head_dim"])
    np.testing.assert_allclose(ours[PEERS.peer(s["offsets"])], PEERS.peer(key), atol=1e-8)


def test_sums_do_not_depend_on_the_thread_count():
    whole = set_max_threads(1)
    try:
        one = rope_base_sums(3e6, 300_000, 128)
    finally:
        set_max_threads(None)
    shared = rope_base_sums(3e6, 300_000, 128)
    assert whole == 1
    np.testing.assert_allclose(one, shared, rtol=0, atol=1e-9)


def test_failure_is_the_first_negative_sum_of_torch():
    # Llama 2: base 10000, head_dim 128, context 4096.
    peer = PEERS.peer("torch_base_sums_b10000_d128_L8192")
    assert rope_base_failure(10000.0, 4096, 128) == int(np.flatnonzero(peer < 0)[0]) == 1707


def test_failure_is_none_when_every_sum_is_non_negative():
    peer = PEERS.peer("torch_base_sums_b500000_d128_L16384")
    assert peer.min() >= 0 and rope_base_failure(500000.0, 16384, 128) is None


@settings(max_examples=40, deadline=None)
@given(context=st.integers(1, 400), half=st.integers(2, 16))
def test_the_bound_is_safe_and_the_base_just_below_fails(context, half):
    head_dim = 2 * half
    bound = rope_base_lower_bound(context, head_dim)
    assert first_failure(bound, context, head_dim) is None
    if bound > 1.0:
        assert first_failure(bound * (1 - 1e-6), context, head_dim) is not None


@settings(max_examples=40, deadline=None)
@given(
    context=st.integers(2, 400),
    half=st.integers(2, 16),
    where=st.floats(0.0, 1.0, exclude_max=True),
)
def test_every_base_below_the_bound_fails(context, half, where):
    """Below the bound by more than its documented precision (1e-9 of the base: where B(m)
    only touches zero, float64 decides its sign within ~1e-8 of the root; hypothesis found
    d = 6, L = 2 safe one float below the bound, and d = 4, L = 22 safe 1.4e-14 below)."""
    head_dim = 2 * half
    bound = rope_base_lower_bound(context, head_dim)
    base = min(bound**where, bound * (1 - 1e-9))  # 1 <= base < bound
    assert first_failure(base, context, head_dim) is not None


def test_the_safe_bases_are_not_an_interval():
    # Llama-sized heads at 4096: bases above the bound fail again (a bisection trap).
    bound = rope_base_lower_bound(4096, 128)
    above = bound * np.exp(np.linspace(0.0, 0.8, 100))
    failing = [b for b in above if first_failure(b, 4096, 128) is not None]
    assert failing and min(failing) > bound


def test_llama2_base_is_below_the_bound_for_its_context():
    bound = rope_base_lower_bound(4096, 128)
    assert round(bound) == 26952 and rope_base_failure(10000.0, 4096, 128) is not None


@pytest.mark.parametrize(("context", "head_dim"), [(4096, 128), (3000, 64), (1000, 256)])
def test_stored_bound_equals_the_sweep(context, head_dim, live):
    table = STORED["head_dims"][str(head_dim)]
    stored = table["bases"][np.searchsorted(table["contexts"], context, side="right") - 1]
    assert rope_base_lower_bound(context, head_dim) == pytest.approx(stored, rel=1e-12)


def test_stored_step_function_equals_the_one_built_from_scratch(live):
    contexts, bases = rope_base_bounds(4096, 128)
    table = STORED["head_dims"]["128"]
    n = len(contexts)
    assert contexts.tolist() == table["contexts"][:n] and table["contexts"][n] > 4096
    np.testing.assert_allclose(bases, table["bases"][:n], rtol=1e-12)


@pytest.mark.parametrize("head_dim", sorted(STORED["head_dims"], key=int))
def test_stored_bounds_increase_with_the_context(head_dim):
    table = STORED["head_dims"][head_dim]
    assert np.all(np.diff(table["contexts"]) > 0) and np.all(np.diff(table["bases"]) > 0)
    assert table["contexts"][0] == 1 and table["bases"][0] == 1.0


@pytest.mark.parametrize("head_dim", sorted(STORED["head_dims"], key=int))
def test_stored_bounds_are_safe_and_fail_just_below(head_dim):
    table = STORED["head_dims"][head_dim]
    d = int(head_dim)
    picks = np.unique(np.linspace(1, len(table["contexts"]) - 1, 6).astype(int))
    for k in picks:
        context = table["contexts"][k]
        base = table["bases"][k]
        assert rope_base_failure(base, context, d) is None
        assert rope_base_failure(base * (1 - 1e-9), context, d) is not None


def test_a_stored_head_dim_is_answered_without_sweeping(monkeypatch):
    def no_sweep(*args, **kwargs):
        raise AssertionError("swept")

    monkeypatch.setattr(module, "_sweep", no_sweep)
    module._lower_bound.cache_clear()
    assert rope_base_lower_bound(2**20, 128) == STORED["head_dims"]["128"]["bases"][-1]
    module._lower_bound.cache_clear()


def test_a_context_between_steps_takes_the_step_below():
    table = STORED["head_dims"]["128"]
    k = next(i for i in range(1, len(table["contexts"])) if np.diff(table["contexts"])[i] > 2)
    middle = table["contexts"][k] + 1
    assert rope_base_lower_bound(middle, 128) == table["bases"][k]


def test_context_one_needs_no_base():
    assert rope_base_lower_bound(1, 128) == 1.0


def test_bounds_of_an_unstored_head_dim_are_built_and_safe():
    contexts, bases = rope_base_bounds(500, 14)
    assert contexts[0] == 1 and np.all(np.diff(bases) > 0)
    for context, base in zip(contexts[1:], bases[1:], strict=True):
        assert first_failure(base, context, 14) is None
        assert first_failure(base * (1 - 1e-9), context, 14) is not None


BAD = [
    (rope_base_lower_bound, (0, 128), "context"),
    (rope_base_lower_bound, (2**20 + 1, 128), "context"),
    (rope_base_lower_bound, (4096, 127), "head_dim"),
    (rope_base_lower_bound, (4096, 2), "head_dim"),
    (rope_base_lower_bound, (4096, 2048), "head_dim"),
    (rope_base_bounds, (2.5, 64), "max_context"),
    (rope_base_sums, (0.5, 10, 64), "base"),
    (rope_base_sums, (float("inf"), 10, 64), "base"),
    (rope_base_sums, (1e4, 2**22 + 1, 64), "context"),
    (rope_base_failure, (1e4, 10, 63), "head_dim"),
    (rope_base_failure, (True, 10, 64), "base"),
]


@pytest.mark.parametrize(("function", "args", "name"), BAD,
                         ids=[f"{f.__name__}{a}" for f, a, _ in BAD])  # fmt: skip
def test_bad_input_raises_value_error_naming_the_parameter(function, args, name):
    with pytest.raises(ValueError, match=name):
        function(*args)


def test_the_functions_are_exported():
    assert {"rope_base_lower_bound", "rope_base_failure", "rope_base_sums"} <= set(posenc.__all__)
