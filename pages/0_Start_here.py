"""Start here: the guided story, one idea per step (the workshop deck).

The page lives in ``ui/features/story/``; Streamlit needs this script for its URL."""

from ui.features.story import page

page.render()
