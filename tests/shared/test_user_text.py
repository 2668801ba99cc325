"""Text a visitor controls never becomes markup (issue #24, item 2), and the notices about
refused URL values say what really happens (item 4).

A URL parameter's name or value and a sentence typed into a box reach Streamlit Markdown
(notices, captions) and Plotly labels. Markdown must not turn them into a link, an image
fetched from anywhere or a heading; Plotly must not read their ``<b>`` as bold type.
No Markdown parser is installed, so :func:`rendered_syntax` reads the Markdown source as
GFM would: code spans are literal, a backslash escapes punctuation, and bare links
(``https://x``, ``www.x``, ``a@b.c``) are found in the text *after* escapes are resolved
(as ``remark-gfm`` does). A browser test checks the rendered notice itself.
"""

from __future__ import annotations

import re
import urllib.parse

import pytest
from support.apptest import run_page, run_page_on_tab, tab_label
from support.browser import wait_for_app
from support.screen import chart

from ui.features.heatmap import specs as hm
from ui.features.rope import specs as rp
from ui.features.wavelengths import specs as wl
from ui.plain.params import SEQ_LEN, ParamError
from ui.plain.safe_text import LIMIT, markdown_code, markdown_text, one_line, plotly_text

# The adversarial pass's URLs (issue #24), as query parameters.
HOSTILE_QUERIES = {
    "link in a setting's name": {"[Sign in again](https://evil.co)": "1"},
    "image in a value": {"hm_seed": "![](http://127.0.0.1:8501/l.png)"},
    "heading in a value": {"seq_len": "x\n\n# HEAD"},
}
HOSTILE_TEXTS = [
    "[Sign in again](https://evil.co)",
    "![](http://127.0.0.1:8501/l.png)",
    "x\n\n# HEAD",
    "# HEAD",
    "<b>x</b> <img src=x>",
    "<https://evil.co>",
    "www.evil.co/login",
    "mail admin@evil.co",
    ":red[alarm] $x^2$ :material/warning:",
    "**bold** _it_ ~~gone~~ `code`",
    "| a | b |",
    "- item",
    "1. item",
    "a\\[b](https://evil.co)",  # a backslash of its own before the bracket
    "`` ` ``",
]

_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")
_AUTOLINK = re.compile(r"(?i)(?:https?|ftp)://|\bwww\.|[\w.+-]+@[\w-]+\.\w")


def _outside_code(md: str, escaped: str | None) -> str:
    """``md`` without its code spans (CommonMark: a run of n backticks up to the next
    run of exactly n); an escaped character becomes ``escaped`` (None: itself)."""
    out, i = [], 0
    while i < len(md):
        if md[i] == "\\" and i + 1 < len(md) and _PUNCTUATION.match(md[i + 1]):
            out.append(md[i + 1] if escaped is None else escaped)
            i += 2
            continue
        run = re.match(r"`+", md[i:])
        if run:
            fence = run.group(0)
            close = re.compile(rf"(?<!`){fence}(?!`)").search(md, i + len(fence))
            if close:
                out.append(" ")
                i = close.end()
                continue
            out.append(fence)
            i += len(fence)
            continue
        out.append(md[i])
        i += 1
    return "".join(out)


def syntax(md: str) -> str:
    """What Markdown reads as syntax: code spans and escaped characters removed."""
    return _outside_code(md, "")


def text_nodes(md: str) -> str:
    """The text outside code spans as GFM's autolinker sees it: escapes resolved."""
    return _outside_code(md, None)


def rendered_syntax(md: str) -> list[str]:
    """The links, images, headings, HTML, code and bare links ``md`` would render."""
    live = syntax(md)
    found = [s for s in ("[", "](", "![", "<", "`", "$", "*", "~") if s in live]
    found += [f"heading {line!r}" for line in live.splitlines() if re.match(r"\s*#", line)]
    found += [f"bare link {m.group(0)!r}" for m in _AUTOLINK.finditer(text_nodes(md))]
    return found


def notice(at) -> str:
    assert len(at.warning) == 1, [w.value for w in at.warning]
    return at.warning[0].value


def test_the_checker_sees_links_images_headings_and_bare_links():
    for text in HOSTILE_TEXTS[:9]:
        assert rendered_syntax(text), text
    assert rendered_syntax("see https\\://evil.co")  # an escape does not stop GFM here
    assert not rendered_syntax("plain words, 3.7 and (brackets)")


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_markdown_text_renders_as_the_text_itself(text):
    md = markdown_text(text, limit=200)
    assert rendered_syntax(md) == [], md
    assert text_nodes(md).replace("\u200b", "") == one_line(text, 200)


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_markdown_code_renders_as_the_text_itself(text):
    md = markdown_code(text, limit=200)
    assert rendered_syntax(md) == [], md
    fence = re.fullmatch(r"(`+)(.*)\1", md, re.S)
    assert fence and fence.group(2).strip() == one_line(text, 200).strip()


def test_user_text_is_one_line_and_cut_short():
    long = "word " * 100 + "\n\n# HEAD"
    for shown in (one_line(long), markdown_code(long), plotly_text(long, 30)):
        assert "\n" not in shown and "…" in shown
    assert len(one_line(long)) == LIMIT
    assert len(plotly_text("<" * 100, 30)) == 29 * len("&lt;") + 1


def test_plotly_text_shows_html_as_typed():
    assert plotly_text("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"
    assert plotly_text('<a href="https://evil.co">&amp;</a>', 100) == (
        '&lt;a href="https://evil.co"&gt;&amp;amp;&lt;/a&gt;'
    )


@pytest.mark.parametrize("query", HOSTILE_QUERIES.values(), ids=list(HOSTILE_QUERIES))
def test_a_hostile_url_gives_a_notice_with_no_link_image_or_heading(query):
    at = run_page("1_Heatmap.py", query, timeout=120)
    value = notice(at)
    assert rendered_syntax(value) == [], value


def test_an_unknown_setting_name_is_shown_as_code():
    name = next(iter(HOSTILE_QUERIES["link in a setting's name"]))
    at = run_page("1_Heatmap.py", {name: "1"}, timeout=120)
    assert markdown_code(name) in notice(at)


def test_a_400_digit_integer_is_out_of_range_not_a_fraction():
    with pytest.raises(ParamError) as caught:
        SEQ_LEN.parse("1" * 400)
    assert caught.value.code == "outside"
    assert str(caught.value).endswith("is outside [1, 8192]")
    at = run_page("1_Heatmap.py", {"seq_len": "-" + "9" * 400}, timeout=120)
    assert "is outside [1, 8192]" in notice(at) and "whole number" not in notice(at)


def test_a_too_long_sentence_in_the_url_is_reset_to_the_default_as_the_notice_says():
    sentence = "a " * 105  # 210 characters: the text box holds at most 200
    assert len(sentence) > hm.SENTENCE.max_chars
    at = run_page("1_Heatmap.py", {hm.SENTENCE.key: sentence}, timeout=120)
    assert "reset to their defaults" in notice(at) and "200 characters" in notice(at)
    assert at.text_input(key=hm.SENTENCE.key).value == hm.SENTENCE.default
    assert hm.SENTENCE.key not in at.query_params


def test_a_too_long_number_list_gives_one_notice_and_leaves_the_url():
    query = {wl.DIMS.key: "1," * 61}  # cut at 120 characters it would end in an empty value
    at = run_page_on_tab("2_Wavelengths.py", wl, query, "curves", 120)
    lines = [line for line in notice(at).splitlines() if line.startswith("- ")]
    assert len(lines) == 1 and "120 characters" in lines[0], lines
    assert at.text_input(key=wl.DIMS.key).value == wl.DIMS.default
    assert wl.DIMS.key not in at.query_params


@pytest.mark.browser
def test_a_list_typed_after_a_refused_one_goes_into_the_url(server, page):
    label = tab_label(wl, "curves")
    query = urllib.parse.urlencode({wl.TAB.key: label, wl.DIMS.key: "1," * 61})
    page.goto(f"{server.url}/Wavelengths?{query}")
    wait_for_app(page)
    assert wl.DIMS.key not in page.url
    box = page.locator(f".st-key-{wl.DIMS.key} input")
    box.fill("4, 5")
    box.press("Enter")
    page.wait_for_function(f"() => location.search.includes('{wl.DIMS.key}=4')", timeout=60_000)


def test_heatmap_sentence_tokens_are_escaped_in_tick_labels_and_hover():
    at = run_page("1_Heatmap.py", {hm.SENTENCE.key: "<b>x</b> y"}, timeout=120)
    fig = chart(at, "hm_table")
    ticks = fig["layout"]["yaxis"]["ticktext"]
    assert ticks[0].startswith("0 &lt;"), ticks  # a token "<b>x</b>" or "<" (punctuation)
    rows = fig["data"][0]["y"]  # categories, shown in the hover text
    assert "&lt;" in rows[0] and not any("<" in label for label in [*ticks, *rows])


def test_rope_sentence_tokens_are_escaped_in_tick_labels_and_the_caption():
    query = {"rope_len": "24", "rope_head_dim": "16", rp.CONTENT.key: "sentence"}
    at = run_page("5_RoPE.py", {**query, rp.TEXT.key: "<b>x</b> [a](https://evil.co)"}, 120)
    ticks = chart(at, "rope_scores_chart")["layout"]["yaxis"]["ticktext"]
    assert ticks[0] == "&lt;·0" and not any("<" in tick for tick in ticks), ticks
    caption = next(c.value for c in at.caption if "tokens" in c.value)
    assert rendered_syntax(caption) == [], caption


@pytest.mark.browser
def test_hostile_urls_render_a_notice_without_link_image_or_heading(server, page):
    outside = []
    page.on("request", lambda r: not r.url.startswith(server.url) and outside.append(r.url))
    query = {k: v for q in HOSTILE_QUERIES.values() for k, v in q.items()}
    page.goto(f"{server.url}/Heatmap?{urllib.parse.urlencode(query)}")
    wait_for_app(page)
    alert = page.locator("[data-testid=stAlert]").first
    html = alert.inner_html()
    assert "Sign in again" in html and "HEAD" in html and "127.0.0.1" in html
    assert not re.search(r"<(a|img|h[1-6])\b", html), html
    assert outside == []
