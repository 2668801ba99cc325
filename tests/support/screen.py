"""What an AppTest run shows, read back: the drawn Plotly figures, one chart by its key,
the warnings and captions as a reader sees them, chart sizes as sent to the browser."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from ui.shared.figure_cache import decode_arrays

_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def rendered(markdown: str) -> str:
    """Markdown source as a reader sees its characters: backslash escapes of ASCII
    punctuation removed (``'3\\.7'`` -> ``'3.7'``; ``ui.plain.safe_text`` escapes values)."""
    return _ESCAPED.sub(r"\1", markdown)


def notice_text(at: AppTest) -> str:
    """Every warning of the run, as read on screen (see :func:`rendered`)."""
    return " ".join(rendered(w.value) for w in at.warning)


def decode(value):
    """Plotly >= 6 typed-array JSON ({dtype, bdata, shape}) -> ndarray, also inside dicts
    and lists; other values unchanged (the figure cache's own decoding)."""
    return decode_arrays(value)


def figures(at: AppTest) -> list[dict]:
    """Every Plotly figure drawn by the script, as dicts (arrays still encoded)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def chart_key(element_id: str) -> str:
    """The key a chart was drawn with, from its element id ``$$ID-<hash>-<key>``."""
    return element_id.split("-", 2)[-1]


def chart(at: AppTest, key: str) -> dict:
    """The figure of the chart drawn with exactly ``key``."""
    for element, fig in zip(at.get("plotly_chart"), figures(at), strict=True):
        if chart_key(element.proto.id) == key:
            return fig
    raise KeyError(key)


def captions(at: AppTest) -> str:
    """Every caption on screen, one per line (for a phrase inside some caption)."""
    return "\n".join(caption_list(at))


def caption_list(at: AppTest) -> list[str]:
    """Each caption on screen, whole (for a text that must be one caption exactly)."""
    return [c.value for c in at.caption]


def chart_keys(at: AppTest) -> list[str]:
    """The key of each chart drawn, in order (exact: ``hm_learned`` is not
    ``hm_learned_similarity``)."""
    return [chart_key(el.proto.id) for el in at.get("plotly_chart")]


def chart_ids(at: AppTest) -> list[str]:
    """The element id of each chart drawn (``$$ID-<hash>-<key>``)."""
    return [el.proto.id for el in at.get("plotly_chart")]


def chart_sizes(at: AppTest) -> list[int]:
    """Bytes of each chart's JSON as sent to the browser."""
    return [len(el.proto.spec.encode()) for el in at.get("plotly_chart")]
