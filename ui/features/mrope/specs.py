"""URL-bound controls of the multi-axis RoPE page (``pages/7_Multi_axis_RoPE.py``)."""

from __future__ import annotations

from ui.plain.params import ChoiceParam, FloatParam, IntParam, tab_param

# Sidebar: the image (its grid in patches, as image_grid_thw gives it) and the base.
FRAMES = IntParam("mrope_t", 1, 32, 1, label="mrope.frames")
HEIGHT = IntParam("mrope_h", 2, 64, 24, step=2, label="mrope.height")
WIDTH = IntParam("mrope_w", 2, 64, 32, step=2, label="mrope.width")
# Qwen2-VL's and Qwen2.5-VL's rope_theta.
BASE = FloatParam("mrope_base", 1.0, 1e9, 1e6, exclusive_minimum=True, label="mrope.base")

# Tab "positions": the text around the image.
BEFORE = IntParam("mrope_before", 0, 64, 4, label="mrope.before")
AFTER = IntParam("mrope_after", 1, 64, 4, label="mrope.after")

# Tab "picture": the query token (row-major index in one frame's token grid) and content.
QUERY = IntParam("mrope_query", 0, 1023, 87, label="mrope.query")
CONTENT = ChoiceParam("mrope_content", ("random", "same"), "random", label="mrope.content")
SEED = IntParam("mrope_seed", 0, 9999, 0, label="mrope.seed")

# Tabs run lazily; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = ("positions", "pairs", "picture")
TAB = tab_param("mrope_tab", "mrope", TAB_NAMES)

SPECS = (FRAMES, HEIGHT, WIDTH, BASE, BEFORE, AFTER, QUERY, CONTENT, SEED, TAB)
