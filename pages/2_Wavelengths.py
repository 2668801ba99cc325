"""Wavelength explorer: lambda_i and omega_i, curves, vectors, clock dials, frequency forms.

The page lives in ``ui/features/wavelengths/``; Streamlit needs this script for its URL."""

from ui.features.wavelengths import page

page.render()
