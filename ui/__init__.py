"""Everything the pages show, one folder per page (CONTRIBUTING.md, "Shape of the house").

Data flows one way: ``app.py`` and ``pages/*.py`` -> ``ui.features.<page>`` ->
``ui.shared`` (Streamlit machinery) -> ``ui.plain`` (no Streamlit) -> ``posenc``; no page
folder imports another (import-linter contracts in pyproject.toml, run and planted by
tests/house/test_layers.py). In a page folder: ``page.py`` draws it, ``specs.py`` holds
its URL-bound controls, ``data.py`` its cached computations, ``figures.py`` its figure
builders (arrays and words in, ``go.Figure`` out: no Streamlit, posenc or pandas),
``texts_en.py`` / ``texts_zh.py`` its words.

This package's import sets the process-wide limits every session shares (below).
"""

import numpy  # noqa: F401  (loads the BLAS library the limit below applies to)
import pandas  # noqa: F401  (see below)
from threadpoolctl import threadpool_limits

# pandas is imported here, fully, before any page builds a figure: Plotly's validators
# look pandas up in sys.modules without importing it, and on a fresh server two
# sessions' threads could otherwise meet a half-imported pandas ("partially initialized
# module 'pandas' has no attribute 'Series'", seen in bench/load.py). A second thread
# importing ui waits on this module's import lock until pandas is complete.

# One BLAS thread per process: the server runs every session's reruns in parallel
# threads, and each multithreaded BLAS call then oversubscribes the cores (a 512 x 256
# least-squares fit took 0.67 s with 2 BLAS threads under load, 0.03 s with one).
# numpy is imported by Streamlit before any page runs, so an environment variable set
# here would come too late.
threadpool_limits(limits=1, user_api="blas")
