"""Bring your own embeddings: the heatmap page shows an uploaded .npy beside the
sinusoidal table, and a bad file gets a message while the page keeps working."""

import io
import pickle
import re

import numpy as np
import pytest
from support.browser import real_errors, wait_for_app

from ui.plain.texts import text
from ui.shared.learned import SIMILARITY_ROWS, learned_grid, learned_similarity


def npy_bytes(array, **kwargs) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, **kwargs)
    return buffer.getvalue()


def test_learned_similarity_is_m_times_m_transpose():
    m = np.random.default_rng(1).standard_normal((40, 8))
    np.testing.assert_allclose(learned_similarity(m).z, m @ m.T, rtol=1e-5, atol=1e-5)


def test_learned_similarity_uses_at_most_the_first_rows():
    m = np.ones((SIMILARITY_ROWS + 10, 2))
    grid = learned_similarity(m)
    assert grid.rows.max() < SIMILARITY_ROWS


def test_learned_grid_colour_range_is_the_largest_entry():
    m = np.array([[0.5, -3.0], [1.0, 2.0]])
    grid, top = learned_grid(m)
    assert top == 3.0 and grid.z.shape == (2, 2)


CHARTS = "[data-testid=stPlotlyChart]"


def upload(page, server, name, data, lang="en", query=""):
    page.goto(server.url + f"/Heatmap?seq_len=60&d_model=32&lang={lang}{query}")
    wait_for_app(page)
    page.wait_for_selector(CHARTS)
    before = page.locator(f"{CHARTS}:visible").count()
    if "present=true" in query:  # a projector starts with the sidebar (and its uploader) closed
        page.get_by_test_id("stExpandSidebarButton").click()
    opener = {"en": "Compare with your embeddings", "zh": text("zh", "heatmap.upload_open")}
    page.get_by_role("button", name=re.compile(opener[lang])).click()
    page.locator("input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}]
    )
    page.wait_for_timeout(500)
    wait_for_app(page)
    return before


@pytest.mark.browser
def test_a_learned_matrix_is_drawn_beside_the_sinusoidal_table(server, page):
    good = np.random.default_rng(0).standard_normal((60, 32)).astype(np.float32)
    before = upload(page, server, "learned.npy", npy_bytes(good))
    page.wait_for_function(
        f"() => document.querySelectorAll('{CHARTS}').length > 0"
        " && document.body.innerText.includes('Your matrix: 60 positions')",
        timeout=60_000,
    )
    assert page.locator(f"{CHARTS}:visible").count() == before + 1
    # Closing the popover reruns the page (its content is drawn only while open, issue
    # #32); the uploader is drawn while it holds a file, so the file stays.
    page.keyboard.press("Escape")
    page.locator("input[type=file]").wait_for(state="hidden", timeout=30_000)
    page.wait_for_timeout(1000)
    wait_for_app(page)
    assert page.locator(f"{CHARTS}:visible").count() == before + 1
    assert "Your matrix: 60 positions" in page.inner_text("body")
    assert page.locator("[data-testid=stException]").count() == 0
    assert real_errors(page) == []


@pytest.mark.browser
@pytest.mark.parametrize(("query", "stacked"), [("", False), ("&present=true", True)])
def test_presenter_mode_puts_the_learned_table_under_the_sinusoidal_one(
    server, page, query, stacked
):
    # Side by side, two square heatmaps share ~560 px on a 1024 px projector.
    good = np.random.default_rng(0).standard_normal((60, 32)).astype(np.float32)
    before = upload(page, server, "learned.npy", npy_bytes(good), query=query)
    page.wait_for_function(
        f"() => document.querySelectorAll('{CHARTS}:not([hidden])').length > {before}"
        " && document.body.innerText.includes('Your matrix: 60 positions')",
        timeout=60_000,
    )
    page.wait_for_timeout(500)
    sinusoidal, learned = (page.locator(f"{CHARTS}:visible").nth(i).bounding_box() for i in (0, 1))
    below = learned["y"] >= sinusoidal["y"] + sinusoidal["height"] - 1
    assert below == stacked
    assert (learned["x"] > sinusoidal["x"] + sinusoidal["width"] - 1) == (not stacked)


@pytest.mark.browser
@pytest.mark.parametrize(
    ("name", "data", "fragment"),
    [
        ("pickled.npy", npy_bytes(np.array([{"a": 1}], dtype=object), allow_pickle=True), "dtype"),
        ("nan.npy", npy_bytes(np.array([[0.0, np.nan]])), "NaN"),
        ("not.npy", pickle.dumps([1, 2, 3]), "npy"),
        ("cube.npy", npy_bytes(np.zeros((2, 2, 2))), "2-D"),
    ],
    ids=["pickled", "nan", "not-npy", "3-d"],
)
def test_a_bad_file_gets_a_message_and_changes_nothing(server, page, name, data, fragment):
    before = upload(page, server, name, data)
    alert = page.locator("[data-testid=stSidebar] [data-testid=stAlert]")
    alert.wait_for(timeout=60_000)
    assert "not used" in alert.inner_text()
    assert fragment.lower() in alert.inner_text().lower()
    assert page.locator(f"{CHARTS}:visible").count() == before
    assert page.locator("[data-testid=stException]").count() == 0


@pytest.mark.browser
def test_a_bad_file_is_explained_in_chinese_on_the_chinese_page(server, page):
    before = upload(page, server, "cube.npy", npy_bytes(np.zeros((2, 2, 2))), lang="zh")
    alert = page.locator("[data-testid=stSidebar] [data-testid=stAlert]")
    alert.wait_for(timeout=60_000)
    said = text("zh", "heatmap.npy_ndim", ndim=3, shape=(2, 2, 2))
    assert text("zh", "heatmap.upload_error", error=said) in alert.inner_text()
    assert page.locator(f"{CHARTS}:visible").count() == before


def _parse_twice_script(first: bytes, second: bytes):
    """An app that parses two uploads in turn; the second run parses the first again."""
    import streamlit as st

    from ui.shared.learned import STATE_KEY, parse_once

    reads = st.session_state.setdefault("reads", [])

    def reader(name, data):
        return lambda: reads.append(name) or data

    parse_once("a", reader("a", first))
    parse_once("a", reader("a", first))  # the same file again: not read again
    kept = parse_once("b", reader("b", second))
    st.session_state["kept"] = [k for k, v in st.session_state.items() if k == STATE_KEY]
    st.session_state["matrix"] = kept.matrix


def test_an_upload_is_parsed_once_and_replaces_the_previous_one():
    """One parsed upload per session, in session_state (it goes with the session)."""
    from streamlit.testing.v1 import AppTest

    first = npy_bytes(np.ones((4, 2), dtype=np.float64))
    second = npy_bytes(np.full((3, 5), 2, dtype=np.int16))
    at = AppTest.from_function(_parse_twice_script, args=(first, second), default_timeout=30)
    at.run()
    assert not at.exception
    assert at.session_state["reads"] == ["a", "b"]
    assert at.session_state["kept"] == ["hm_upload_parsed"]
    kept = at.session_state["hm_upload_parsed"]
    assert kept.file_id == "b" and kept.matrix.shape == (3, 5)
    assert kept.matrix.dtype == np.float32


def test_no_process_wide_cache_holds_an_upload():
    """A parse cache keyed by upload bytes let one session pile up matrices for all."""
    from streamlit.testing.v1 import AppTest

    from ui.shared.streamlit_internals import cached_data_bytes as cached_bytes

    before = cached_bytes()
    big = np.random.default_rng(3).standard_normal((512, 512))
    at = AppTest.from_function(
        _parse_twice_script, args=(npy_bytes(big), npy_bytes(big[:256])), default_timeout=30
    )
    at.run()
    assert not at.exception
    assert cached_bytes() - before < 100_000  # the matrices are 1 MB and 0.5 MB


def test_uploads_of_ended_sessions_are_dropped(monkeypatch):
    """Streamlit drops a closed tab's session after its reconnect window without shutting
    it down, so its uploaded bytes stayed for the server's lifetime."""
    from types import SimpleNamespace

    from ui.shared import streamlit_internals as internals
    from ui.shared.learned import drop_uploads_of_ended_sessions

    uploads = internals.MemoryUploadedFileManager("/_stcore/upload_file")
    for session_id in ("alive", "stored for a reconnect", "ended"):
        rec = internals.UploadedFileRec(f"f-{session_id}", "e.npy", "application/x", b"x" * 9)
        uploads.add_file(session_id, rec)
    alive = {"alive", "stored for a reconnect"}
    monkeypatch.setattr(
        internals, "server_runtime", lambda: SimpleNamespace(uploaded_file_mgr=uploads)
    )
    monkeypatch.setattr(internals, "alive_sessions", lambda: alive)
    assert drop_uploads_of_ended_sessions() == 1
    assert set(internals.upload_sessions()) == alive
