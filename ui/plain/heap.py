"""The server's heap: the objects of the modules a page imported are kept out of the
cyclic garbage collector's full scans (issue #32).

Plotly's validators, pandas, numpy and Streamlit leave ~1M long-lived objects; with a room
of 200 on one process, a full collection scanned them all every few seconds (~110 ms
each, holding the GIL: 1.5 s of 40 s in a run of ``bench/serve_load.py``). Those objects
live as long as the process, so after a page's first run they are moved to the
permanent generation (:func:`gc.freeze`, as pre-fork servers do after their imports);
what the sessions make later is collected as before.
"""

from __future__ import annotations

import gc

_frozen: set[str] = set()


def freeze_after_first_run(page: str) -> bool:
    """Freeze what the process holds once per page (its modules are imported by then);
    True when this call froze."""
    if page in _frozen:
        return False
    _frozen.add(page)
    gc.freeze()
    return True
