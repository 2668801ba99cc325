"""Multi-axis RoPE for images and video: three position rows, the pairs each axis turns,
and the scores over a picture.

The page lives in ``ui/features/mrope/``; Streamlit needs this script for its URL."""

from ui.features.mrope import page

page.render()
