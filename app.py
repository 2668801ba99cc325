"""Home: why a Transformer needs positions, what a good encoding is, the formula.

The page lives in ``ui/features/home/``; Streamlit needs this script for its URL."""

from ui.features.home import page

page.render()
