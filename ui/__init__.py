"""Shared UI layer: controls bound to the URL, the menu, texts in two languages, figures.

Data flows one way: ``pages/*.py`` -> ``ui`` (controls, figure builders) -> ``posenc``.
Only ``ui.controls``, ``ui.menu`` and ``ui.i18n`` import Streamlit; ``ui.figures`` imports
Plotly only, so figure builders are tested without a browser.
"""
