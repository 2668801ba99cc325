"""Downloads stay under ui.shared.export.MAX_DOWNLOAD_BYTES (issue #24): the formats are chosen
from the shape before anything is built, and the payload builders are tested as plain
functions at the largest settings (download_button exposes no bytes in AppTest)."""

from __future__ import annotations

import io
import time
from types import SimpleNamespace

import numpy as np
import pytest

import posenc
from posenc import criteria
from ui.features.heatmap import data as heatmap
from ui.features.rope import data as rope
from ui.features.rotation import data as rotation
from ui.shared import export
from ui.shared.export import MAX_DOWNLOAD_BYTES, csv_bytes_bound, formats, payload


def _largest_matrices():
    """(label, declared shape as the page passes it, the matrix) at the largest settings."""
    side = min(4096, rope.EXPORT_MAX)  # rope_len 4096, head dim 256
    yield (
        "rope_scores",
        (side, side),
        lambda: rope.rope_matrix(
            head_dim=256,
            base=10000.0,
            length=4096,
            layout="interleaved",
            kind="sentence",
            text="the cat sat",
            seed=0,
            scale=True,
            view="scores",
        ),
    )
    shown = 2048  # MAX_DISTANCE of the binary page at seq_len 8192
    yield (
        "binary_distance",
        (shown, shown),
        lambda: np.vstack(
            [b for _, b in criteria.distance_blocks("sinusoidal", shown, 4096, total_length=8192)]
        ),
    )
    yield "pe_table", (1000, 1000), lambda: heatmap.table("paper", 1000, 1000, 10000.0, "split")
    yield "pe_similarity", (1000, 1000), lambda: posenc.similarity_matrix(1000, 4096, 10000.0)
    d = rotation.EXPORT_DIMS
    yield (
        "rotation_T",
        rotation.t_export_shape(d),
        lambda: rotation.t_export(3, d, 10000.0, "split"),
    )
    yield (
        "rotation_T_wide",
        rotation.t_export_shape(4096),
        lambda: rotation.t_export(3, 4096, 10000.0, "split"),
    )


@pytest.mark.parametrize("label, shape, make", list(_largest_matrices()))
def test_each_download_at_the_largest_settings_is_under_the_cap(label, shape, make):
    matrix = make()
    assert matrix.shape == shape, label  # the page declares the shape before building
    offered = formats(shape)
    assert offered, f"{label}: nothing offered"
    for fmt in offered:
        data = payload(matrix, fmt)
        assert len(data) <= MAX_DOWNLOAD_BYTES, (label, fmt, len(data))


def test_the_largest_figure_download_is_under_the_cap():
    from ui.features.heatmap import figures as figs

    grid = heatmap.table_grid("paper", 8192, 4096, 10000.0, "interleaved", False)
    fig = figs.table_figure(grid, words=figs.WORDS, height=460)
    assert len(export.figure_html(fig)) <= MAX_DOWNLOAD_BYTES


def test_csv_bound_holds_for_the_longest_numbers():
    longest = np.full((7, 5), -1.2345678901234567e-308)
    assert len(export.matrix_csv(longest)) <= csv_bytes_bound(7, 5)
    assert len(export.matrix_csv(longest)) >= csv_bytes_bound(7, 5) - 7 * 2  # tight


@pytest.mark.parametrize("rows, cols", [(1, 1), (100, 3), (1000, 1000), (2048, 2048), (8192, 4096)])
def test_formats_are_those_that_fit(rows, cols):
    offered = formats((rows, cols))
    if "csv" in offered:
        assert csv_bytes_bound(rows, cols) <= MAX_DOWNLOAD_BYTES
    if "npy" in offered:
        assert export.npy_bytes(rows, cols) <= MAX_DOWNLOAD_BYTES
    if "npy32" in offered:
        assert export.npy_bytes(rows, cols, 4) <= MAX_DOWNLOAD_BYTES < export.npy_bytes(rows, cols)
    if not offered:
        assert export.npy_bytes(rows, cols, 4) > MAX_DOWNLOAD_BYTES


def test_float32_npy_keeps_the_values_to_float32():
    m = np.random.default_rng(0).standard_normal((30, 4))
    back = np.load(io.BytesIO(payload(m, "npy32")), allow_pickle=False)
    assert back.dtype == np.float32
    np.testing.assert_array_equal(back, m.astype(np.float32))


def test_a_built_download_over_the_cap_is_refused():
    with pytest.raises(ValueError, match="cap"):
        export.built(lambda m: b"x" * (MAX_DOWNLOAD_BYTES + 1), lambda: None)


def test_a_lazy_matrix_needs_its_shape():
    with pytest.raises(TypeError, match="shape"):
        export._check_shape("x", lambda: np.zeros((2, 2)), None)


def test_a_built_download_is_dropped_from_streamlits_storage(monkeypatch):
    """Streamlit keeps a built deferred download until two sweeps of its media files,
    which run only when scripts end: on a quiet server, for hours. ``built`` sweeps."""
    from ui.shared import streamlit_internals as internals

    storage = internals.MemoryMediaFileStorage("/media")
    manager = internals.MediaFileManager(storage)
    monkeypatch.setattr(
        internals, "server_runtime", lambda: SimpleNamespace(media_file_mgr=manager)
    )
    monkeypatch.setattr(export, "SWEEP_DELAY_S", 0.05)
    file_id = manager.add_deferred(
        lambda: export.built(export.matrix_npy, lambda: np.zeros((3, 3))), "x", "1.2.3", "m.npy"
    )
    url = manager.execute_deferred(file_id)
    assert internals.stored_media_files(storage) == 1, url
    deadline = time.monotonic() + 5
    while internals.stored_media_files(storage) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not internals.stored_media_files(storage)
