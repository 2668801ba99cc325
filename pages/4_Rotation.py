"""The rotation demo: PE[p + k] = PE[p] T(k), checked live for any real k.

The page lives in ``ui/features/rotation/``; Streamlit needs this script for its URL."""

from ui.features.rotation import page

page.render()
