"""Shared UI layer: controls bound to the URL, the menu, texts in two languages, figures.

Data flows one way: ``pages/*.py`` and ``app.py`` -> ``ui`` -> ``posenc``; nothing imports
a page. Inside ``ui`` each module has one job (the table in CONTRIBUTING.md):

- ``ui.figures``: builders that take arrays and return Plotly figures; no Streamlit, no
  ``posenc``, no pandas (import-linter contract in pyproject.toml, run by
  tests/test_layers.py), so they are tested without a server.
- ``ui/*_data.py``: cached computations around ``posenc`` (``st.cache_data``); no
  captions, callbacks or translated tables.
- display: ``controls`` (the facade over ``url_state``, ``widgets``, ``layout``,
  ``latex_rows``, ``lazy_tabs``), a page's tab and ``*_view`` modules, ``menu``,
  ``notices``: Streamlit widgets, captions and tables; texts come from ``ui.shared.i18n.t``.
- shared pieces without a page (``pe_table``, ``columns``, ``tokens``, ``tables``), the
  control specs (``params``, ``ui.specs``) and the escaping of visitor text (``safe_text``).
- ``ui.plain.texts``: one read-only catalogue per language, shared by every session.
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
