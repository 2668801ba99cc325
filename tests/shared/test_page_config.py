"""The page's frame (``controls.setup_page``): the favicon travels inside the page config.

Given the PNG's path, Streamlit read the file, opened it with PIL and registered it with
the media file manager on every run of every session (issue #32); a data URL it passes on
as it is.
"""

from __future__ import annotations

import base64

from streamlit.commands import page_config

from tests.support.apptest import run_page
from ui.shared import controls
from ui.shared.streamlit_internals import MediaFileManager


def test_the_favicon_is_the_apps_png_as_a_data_url():
    prefix = "data:image/png;base64,"
    assert controls.FAVICON.startswith(prefix)
    assert base64.b64decode(controls.FAVICON[len(prefix) :]) == controls.FAVICON_FILE.read_bytes()
    assert controls.FAVICON_FILE.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(controls.FAVICON) < 2_000  # sent with every rerun's page config


def test_streamlit_sends_the_favicon_as_it_is():
    assert page_config._get_favicon_string(controls.FAVICON) == controls.FAVICON


def test_a_run_registers_no_media_file_for_the_favicon(monkeypatch):
    added = []
    real = MediaFileManager.add

    def counting(self, path_or_data, mimetype, coordinates, *args, **kwargs):
        added.append(coordinates)
        return real(self, path_or_data, mimetype, coordinates, *args, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add", counting)
    run_page(None)
    assert "favicon" not in added
    # the check sees a path's favicon: it is registered on every run
    monkeypatch.setattr(controls, "FAVICON", str(controls.FAVICON_FILE))
    run_page(None)
    assert "favicon" in added
