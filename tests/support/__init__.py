"""What the tests import as a library (``tests/`` is on pytest's ``pythonpath``, so
``from support.apptest import run_page``); ``tests/conftest.py`` keeps only fixtures and
hooks and is never imported by a test. One module per job:

- :mod:`support.paths`: the repository's folders (``ROOT``, ``APP``, ``ARTIFACTS``).
- :mod:`support.apptest`: running a page in AppTest (``run_page``, ``run_page_on_tab``,
  ``switch_tab``, ``tab_label``, ``rerun``, ``Page``).
- :mod:`support.screen`: what a run shows, read back (``figures``, ``chart``, ``decode``,
  ``rendered``, ``notice_text``, ``captions``, ``caption_list``, ``chart_ids``,
  ``chart_sizes``).
- :mod:`support.views`: every page and tab of the menu with its URL-bound specs (what the
  sweeps walk: ``PAGES``, ``PAGE_TABS``, ``extreme``, ``CHARTLESS``, ``setting_label``).
- :mod:`support.server`: a Streamlit server of the app on loopback (``start_server``,
  ``stop_server``, ``free_port``, ``answers``, ``listens``).
- :mod:`support.browser`: headless Chromium (``CHROMIUM``, ``CHROMIUM_ARGS``,
  ``wait_for_app``, ``real_errors``).
- :mod:`support.groups`: which tests start a server or a browser, share the xdist
  ``servers`` group and are ``slow``.
- :mod:`support.counts`: the cases the sweeps tried, printed in the summary.
- :mod:`support.peers`, :mod:`support.scheme_peers`: the peer reference values.
"""
