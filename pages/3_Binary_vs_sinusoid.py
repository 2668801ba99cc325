"""Binary counter vs sinusoid: each simpler position code, what fails, what the sinusoid fixes.

The page lives in ``ui/features/binary/``; Streamlit needs this script for its URL."""

from ui.features.binary import page

page.render()
