"""Heatmap: the sinusoidal table cell by cell, as frameworks write it, added to word

The page lives in ``ui/features/heatmap/``; Streamlit needs this script for its URL."""

from ui.features.heatmap import page

page.render()
