"""Schemes compared: none, sinusoidal, learned, T5, ALiBi, RoPE, xPos, partial RoPE and

The page lives in ``ui/features/schemes/``; Streamlit needs this script for its URL."""

from ui.features.schemes import page

page.render()
