"""The RoPE attention-score viewer: S[m, n] depends on the contents and on m - n only.

The page lives in ``ui/features/rope/``; Streamlit needs this script for its URL."""

from ui.features.rope import page

page.render()
