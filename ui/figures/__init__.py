"""Figure builders: plain functions ``arrays -> plotly.graph_objects.Figure``.

No Streamlit here, so every builder is tested without a browser.
"""
