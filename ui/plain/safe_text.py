"""Text a visitor controls, made safe for the places that interpret it (issue #24).

URL parameter names and values, text typed into a box, file names: such text must never
become markup. Streamlit's Markdown (notices, captions, tooltips) turns ``[a](https://x)``
into a link, ``![](src)`` into an image fetched from anywhere, ``# `` into a heading,
a bare ``https://x`` or ``www.x`` into a link, ``:red[x]`` into colour and ``$x$`` into
a formula; Plotly labels and hover texts interpret a subset of HTML (``<b>``,
``<a href>``, ``<br>``). Every such text goes through one of these functions, which
also put it on one line and cut it short. No Streamlit import: usable from specs,
parsers and figure builders.

- :func:`markdown_text` for prose in Markdown (backslash escapes),
- :func:`markdown_code` for a name or value shown as inline code,
- :func:`plotly_text` for Plotly tick labels, categories, annotations and hover texts.
"""

from __future__ import annotations

import html
import re

# Short enough for a notice line or a tick label, long enough to recognise the text.
LIMIT = 40
PLOT_LIMIT = 24

_SPACE = re.compile(r"\s+")
# Markdown syntax anywhere in a line: escapes, code, emphasis, links, raw HTML and
# <autolinks>, headings, tables, strikethrough, Streamlit's formulas ($) and directives
# (:red[x]). A "!" is syntax only before "[" (an image): escaped there, else left as typed.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#|~$:@]|!(?=\[))")
# Syntax only at the start of a line: list items, setext underlines, ordered lists.
_LINE_START = re.compile(r"^([-+=]|\d{1,9}(?=[.)]))")
# GFM links bare https://x, www.x and a@b.c *after* parsing, in the text itself, where a
# backslash no longer helps: a zero-width space breaks the pattern, invisibly.
_BREAK = "\u200b"
_AUTOLINK = re.compile(r"(?i)(?<=www)(?=\.)|(?=\\[:@])")


def one_line(text: object, limit: int = LIMIT) -> str:
    """``text`` on one line (every run of whitespace, newlines included, becomes one
    space) and at most ``limit`` characters: a longer text is cut and ends with "…"."""
    line = _SPACE.sub(" ", str(text)).strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


def markdown_text(text: object, limit: int = LIMIT) -> str:
    r"""``text`` as literal Markdown prose: one line, cut to ``limit`` characters, every
    character that Markdown or Streamlit would interpret backslash-escaped, and a
    zero-width space where GFM would see a bare link (``https://``, ``www.``, ``a@b``).

    >>> print(markdown_text("[Sign in again](https://evil.co)").replace("\u200b", "<ZWSP>"))
    \[Sign in again\]\(https<ZWSP>\://evil.co\)
    >>> print(markdown_text("x\n\n# HEAD"))
    x \# HEAD
    """
    line = _SPECIAL.sub(r"\\\1", one_line(text, limit))
    line = _AUTOLINK.sub(_BREAK, line)
    if line.startswith("\\"):  # already escaped: a line-start construct cannot follow
        return line
    match = _LINE_START.match(line)
    if match is None:
        return line
    end = match.end()
    if line[0] in "-+=":
        return "\\" + line
    return line[:end] + "\\" + line[end:]


def markdown_code(text: object, limit: int = LIMIT) -> str:
    """``text`` as Markdown inline code (shown literally, no link, image or heading):
    one line, cut to ``limit`` characters, fenced by more backticks than it contains.

    >>> markdown_code("[a](b)")
    '`[a](b)`'
    >>> markdown_code("a`b")
    '``a`b``'
    """
    line = one_line(text, limit)
    longest = max((len(run) for run in re.findall(r"`+", line)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if line.startswith("`") or line.endswith("`") or not line.strip() else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def plotly_text(text: object, limit: int = PLOT_LIMIT) -> str:
    """``text`` for a Plotly label or hover text: one line, cut to ``limit`` characters,
    ``& < >`` as entities, so ``<b>`` is shown as typed instead of making bold type.

    >>> plotly_text("<b>x</b>")
    '&lt;b&gt;x&lt;/b&gt;'
    """
    return html.escape(one_line(text, limit), quote=False)
