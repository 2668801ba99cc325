"""ui.plain.npy_upload: every kind of bad upload is refused with a ValueError saying why
(a TextError: the page says it in its language).

Files are built with numpy (``np.save`` / ``numpy.lib.format``); bytes are written by
hand only where numpy refuses to make the hostile file.
"""

from __future__ import annotations

import io
import pickle
import re
import struct

import numpy as np
import pytest
from numpy.lib import format as npy_format

from ui.plain.npy_upload import MAX_BYTES, MAX_CELLS, file_text, load_position_embedding
from ui.plain.texts import TextError, catalogue, text


def npy(array, **kwargs) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, **kwargs)
    return buffer.getvalue()


def npy_with_header(header: str, payload: bytes = b"") -> bytes:
    """A version 1.0 file whose header text is ``header`` (numpy will not write a bad one)."""
    text = header.encode("latin1")
    return npy_format.magic(1, 0) + struct.pack("<H", len(text)) + text + payload


GOOD = np.arange(12, dtype=np.float32).reshape(3, 4) / 7


def test_good_file_loads_as_float32_matrix():
    """Kept in float32 (issue #24: a float64 copy doubled every upload's memory)."""
    loaded = load_position_embedding(npy(GOOD))
    assert loaded.dtype == np.float32
    assert loaded.flags.c_contiguous and loaded.flags.writeable
    np.testing.assert_array_equal(loaded, GOOD)


def test_integer_matrix_is_accepted():
    ints = np.arange(-6, 6, dtype=np.int16).reshape(4, 3)
    np.testing.assert_array_equal(load_position_embedding(npy(ints)), ints)


def test_format_version_2_is_accepted():
    buffer = io.BytesIO()
    npy_format.write_array(buffer, GOOD, version=(2, 0))
    np.testing.assert_array_equal(load_position_embedding(buffer.getvalue()), GOOD)


def test_fortran_order_is_accepted_and_keeps_values():
    fortran = np.asfortranarray(np.arange(15.0).reshape(3, 5))
    data = npy(fortran)
    fp = io.BytesIO(data)
    npy_format.read_magic(fp)
    assert npy_format.read_array_header_1_0(fp)[1] is True  # the file really is Fortran-ordered
    np.testing.assert_array_equal(load_position_embedding(data), fortran)


def test_big_endian_is_accepted_and_converted():
    big = np.arange(6.0).reshape(2, 3).astype(">f8")
    loaded = load_position_embedding(npy(big))
    assert loaded.dtype.isnative
    np.testing.assert_array_equal(loaded, np.arange(6.0).reshape(2, 3))


def test_shape_at_the_limits_is_accepted():
    loaded = load_position_embedding(npy(np.zeros((8192, 1), np.float32)))
    assert loaded.shape == (8192, 1)
    assert load_position_embedding(npy(np.zeros((1, 4096), np.float32))).shape == (1, 4096)


def test_not_npy_is_rejected():
    with pytest.raises(ValueError, match=r"not a \.npy file"):
        load_position_embedding(b"position,embedding\n0,0.5\n")


def test_empty_file_is_rejected():
    with pytest.raises(ValueError, match=r"not a \.npy file"):
        load_position_embedding(b"")


def test_truncated_data_is_rejected():
    with pytest.raises(ValueError, match="truncated"):
        load_position_embedding(npy(GOOD)[:-5])


def test_truncated_header_is_rejected():
    with pytest.raises(ValueError, match=r"invalid \.npy header"):
        load_position_embedding(npy(GOOD)[:20])


def test_trailing_bytes_are_rejected():
    with pytest.raises(ValueError, match="trailing bytes"):
        load_position_embedding(npy(GOOD) + b"\x00" * 4)


def test_raw_pickle_of_an_array_is_rejected():
    with pytest.raises(ValueError, match=r"not a \.npy file"):
        load_position_embedding(pickle.dumps(GOOD))


def test_object_array_is_rejected_without_unpickling(monkeypatch):
    data = npy(np.array([[1, 2], [3, 4]], dtype=object), allow_pickle=True)

    def no_unpickling(*args, **kwargs):
        raise AssertionError("the loader tried to unpickle")

    monkeypatch.setattr(pickle, "load", no_unpickling)
    monkeypatch.setattr(pickle, "loads", no_unpickling)
    monkeypatch.setattr(pickle, "Unpickler", no_unpickling)
    with pytest.raises(ValueError, match="unsupported dtype object"):
        load_position_embedding(data)


def test_object_dtype_header_is_rejected_before_the_data():
    # An object-dtype header followed by an arbitrary pickle: the dtype check comes first.
    buffer = io.BytesIO()
    header = npy_format.header_data_from_array_1_0(np.empty((1, 2), dtype=object))
    npy_format.write_array_header_1_0(buffer, header)
    crafted = buffer.getvalue() + pickle.dumps(np.ones((1, 2), dtype=object))
    with pytest.raises(ValueError, match="unsupported dtype object"):
        load_position_embedding(crafted)


def test_complex_is_rejected():
    with pytest.raises(ValueError, match="unsupported dtype complex128"):
        load_position_embedding(npy(np.ones((2, 2), dtype=complex)))


def test_structured_dtype_is_rejected():
    structured = np.zeros((2, 2), dtype=[("sin", "f4"), ("cos", "f4")])
    with pytest.raises(ValueError, match="unsupported dtype"):
        load_position_embedding(npy(structured))


def test_bool_is_rejected():
    with pytest.raises(ValueError, match="unsupported dtype bool"):
        load_position_embedding(npy(np.ones((2, 2), dtype=bool)))


def test_text_is_rejected():
    with pytest.raises(ValueError, match="unsupported dtype"):
        load_position_embedding(npy(np.array([["a", "b"]])))


def test_three_dimensional_is_rejected():
    with pytest.raises(ValueError, match="2-D"):
        load_position_embedding(npy(np.zeros((2, 3, 4))))


def test_one_dimensional_is_rejected():
    with pytest.raises(ValueError, match="2-D"):
        load_position_embedding(npy(np.zeros(8)))


def test_zero_rows_are_rejected():
    with pytest.raises(ValueError, match="rows"):
        load_position_embedding(npy(np.zeros((0, 4))))


def test_too_many_bytes_is_rejected_before_parsing():
    data = npy(np.zeros((4096, 700), dtype=np.float64))  # 22.9 MB > 20 MiB
    assert len(data) > 20 * 1024 * 1024
    with pytest.raises(ValueError, match="file too large"):
        load_position_embedding(data)


def test_byte_limit_is_a_parameter():
    with pytest.raises(ValueError, match="file too large"):
        load_position_embedding(npy(GOOD), max_bytes=100)


def test_too_many_rows_is_rejected():
    with pytest.raises(ValueError, match="rows"):
        load_position_embedding(npy(np.zeros((8193, 1), dtype=np.float32)))


def test_too_many_columns_is_rejected():
    with pytest.raises(ValueError, match="columns"):
        load_position_embedding(npy(np.zeros((1, 4097), dtype=np.float32)))


def test_nan_is_rejected():
    bad = GOOD.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="1 NaN"):
        load_position_embedding(npy(bad))


def test_inf_is_rejected():
    bad = GOOD.copy()
    bad[0, 0] = -np.inf
    with pytest.raises(ValueError, match="1 infinite"):
        load_position_embedding(npy(bad))


def test_header_with_code_is_rejected():
    with pytest.raises(ValueError, match=r"invalid \.npy header"):
        load_position_embedding(npy_with_header("__import__('os').system('true')\n"))


def test_header_with_wrong_keys_is_rejected():
    header = "{'descr': '<f8', 'shape': (1, 1)}\n"
    with pytest.raises(ValueError, match=r"invalid \.npy header"):
        load_position_embedding(npy_with_header(header, b"\x00" * 8))


def test_header_shape_larger_than_data_is_rejected():
    fields = npy_format.header_data_from_array_1_0(GOOD)
    fields["shape"] = (300, 4)
    buffer = io.BytesIO()
    npy_format.write_array_header_1_0(buffer, fields)
    with pytest.raises(ValueError, match="truncated"):
        load_position_embedding(buffer.getvalue() + GOOD.tobytes())


def test_unsupported_version_is_rejected():
    data = npy(GOOD)
    version_3 = npy_format.magic(3, 0) + data[len(npy_format.magic(1, 0)) :]
    with pytest.raises(ValueError, match=r"version 3\.0"):
        load_position_embedding(version_3)


def _version_3() -> bytes:
    data = npy(GOOD)
    return npy_format.magic(3, 0) + data[len(npy_format.magic(1, 0)) :]


def _nan() -> bytes:
    bad = GOOD.copy()
    bad[1, 2] = np.nan
    return npy(bad)


BAD_FILES = {  # text key -> a file that gets it
    "heatmap.npy_too_large": lambda: npy(np.zeros((4096, 700))),
    "heatmap.npy_not_npy": lambda: b"position,embedding\n0,0.5\n",
    "heatmap.npy_magic": lambda: npy_format.MAGIC_PREFIX + b"\x01",
    "heatmap.npy_version": _version_3,
    "heatmap.npy_header": lambda: npy(GOOD)[:20],
    "heatmap.npy_dtype": lambda: npy(np.zeros((2, 2), dtype=complex)),
    "heatmap.npy_ndim": lambda: npy(np.zeros((2, 2, 2))),
    "heatmap.npy_rows": lambda: npy(np.zeros((8193, 1), dtype=np.float32)),
    "heatmap.npy_cols": lambda: npy(np.zeros((1, 4097), dtype=np.float32)),
    "heatmap.npy_truncated": lambda: npy(GOOD)[:-5],
    "heatmap.npy_trailing": lambda: npy(GOOD) + b"\x00" * 4,
    "heatmap.npy_nonfinite": _nan,
    "heatmap.npy_cells": lambda: npy(np.zeros((8192, MAX_CELLS // 8192 + 1), dtype=np.uint8)),
    "heatmap.npy_float32_range": lambda: npy(np.full((4, 4), 1e308)),
    "heatmap.npy_header_long": lambda: _long_header(),
}


def _long_header() -> bytes:
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }" + " " * 2000 + "\n"
    return npy_with_header(header, b"\x00" * 8)


@pytest.mark.parametrize("key", BAD_FILES)
def test_every_refusal_can_be_said_in_both_languages(key):
    with pytest.raises(TextError) as caught:
        load_position_embedding(BAD_FILES[key]())
    error = caught.value
    assert error.key == key
    assert str(error) == text("en", key, **error.fields)
    assert re.search(r"[\u4e00-\u9fff]", text("zh", key, **error.fields))


def test_every_refusal_text_has_a_file_that_gets_it():
    keys = {k for k in catalogue("en") if k.startswith("heatmap.npy_")}
    assert keys == set(BAD_FILES)


def test_the_byte_cap_is_the_uploaders():
    """One upload cap: the parser's default is Streamlit's server.maxUploadSize (MiB)."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads(
        (Path(__file__).resolve().parents[2] / ".streamlit/config.toml").read_text()
    )
    assert MAX_BYTES == config["server"]["maxUploadSize"] * 1024 * 1024


def test_the_byte_cap_follows_the_config(tmp_path):
    """Defined once: another maxUploadSize in the config is the parser's cap too."""
    from ui.plain.npy_upload import upload_cap_bytes

    config = tmp_path / "config.toml"
    config.write_text("[server]\nmaxUploadSize = 3\n")
    assert upload_cap_bytes(config) == 3 * 1024 * 1024


def test_numpys_pickle_advice_is_dropped_from_quoted_text():
    advice = (
        "Header info length (3060) is large and may not be safe to load securely.\nTo allow "
        "loading, adjust `max_header_size` or fully trust the `.npy` file using "
        "`allow_pickle=True`.\nFor safety against large resource use or crashes, sandboxing "
        "may be necessary."
    )
    said = file_text(advice, limit=1000)
    assert "allow" not in said and "trust" not in said.lower()
    assert said.startswith("Header info length")


def test_cells_at_the_cap_are_kept_in_float32():
    cols = MAX_CELLS // 8192
    loaded = load_position_embedding(npy(np.ones((8192, cols), dtype=np.uint8)))
    assert loaded.shape == (8192, cols) and loaded.size == MAX_CELLS
    assert loaded.dtype == np.float32 and loaded.nbytes == 4 * MAX_CELLS


def test_one_cell_over_the_cap_is_refused_naming_the_cap():
    data = npy(np.zeros((8192, MAX_CELLS // 8192 + 1), dtype=np.uint8))
    with pytest.raises(TextError) as caught:
        load_position_embedding(data)
    assert caught.value.key == "heatmap.npy_cells"
    assert f"{MAX_CELLS:,}" in str(caught.value)


def test_values_beyond_float32_are_refused_not_drawn_as_inf():
    with pytest.raises(TextError) as caught:
        load_position_embedding(npy(np.full((4, 4), 1e308)))
    assert caught.value.key == "heatmap.npy_float32_range"
    assert "1e+308" in str(caught.value)


def test_float32_extremes_are_accepted():
    top = float(np.finfo(np.float32).max)
    loaded = load_position_embedding(npy(np.array([[top, -top]], dtype=np.float64)))
    assert np.isfinite(loaded).all()


@pytest.mark.parametrize("key", BAD_FILES)
def test_no_refusal_advises_allow_pickle(key):
    """numpy's own refusal of a long header says to 'fully trust the file using allow_pickle'."""
    with pytest.raises(TextError) as caught:
        load_position_embedding(BAD_FILES[key]())
    for lang in ("en", "zh"):
        said = text(lang, caught.value.key, **caught.value.fields)
        assert "allow_pickle" not in said and "trust" not in said.lower()


def test_a_long_header_is_refused_in_our_words():
    with pytest.raises(TextError) as caught:
        load_position_embedding(_long_header())
    assert caught.value.key == "heatmap.npy_header_long"


HOSTILE = "[click me](http://evil.example) **bold** `code` :material/home: $x$ <b>"


def test_file_text_is_escaped_for_markdown_and_cut_short():
    said = file_text(HOSTILE * 10)
    assert len(said) <= 2 * 80 + 1  # at most one backslash per kept character, plus "…"
    assert said.endswith("…")
    assert not UNESCAPED.search(said), said


# A Markdown-special character without a backslash before it.
UNESCAPED = re.compile(r"(?<!\\)[\[\]()*_`$<>:!#|~]")


def test_a_dtype_named_by_the_file_is_escaped_in_the_message():
    hostile = np.dtype([(HOSTILE * 5, "<f4")])
    with pytest.raises(TextError) as caught:
        load_position_embedding(npy(np.zeros((2, 2), dtype=hostile)))
    assert caught.value.key == "heatmap.npy_dtype"
    dtype = caught.value.fields["dtype"]
    assert not UNESCAPED.search(dtype) and len(dtype) <= 161


def test_header_text_from_the_file_is_escaped_in_the_message():
    header = "{'descr': '<f8', 'shape': (1, 1), '[x](http://e)': 1, " + "'**b**': 2}\n"
    with pytest.raises(TextError) as caught:
        load_position_embedding(npy_with_header(header, b"\x00" * 8))
    detail = caught.value.fields["detail"]
    assert not UNESCAPED.search(detail) and len(detail) <= 161
