"""Plain labels (issue #20, section 3): no URL key and no internal code on screen.

Every page and every tab is opened in both languages, and every text the reader sees is
collected: widget labels, options, captions and help tooltips, Markdown, captions,
notices, metric labels, tab and popover labels, chart titles, axis titles,
annotations and trace names, and tables' column titles, row names and text cells. None
may equal an option's URL code, contain a URL key, or look like a snake_case identifier
outside inline code (a library's own names, such as PyTorch's `div_term`, may be shown
as code; an option code never). Formulas
(``st.latex``, ``$...$``) and code blocks
(``st.code``: the frameworks' source and the share link, the one place the URL shows)
are not texts and are left out.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re

import pandas as pd
import pytest
from support.apptest import run_page
from support.views import PAGE_TAB_IDS, PAGE_TABS, script, tab_spec

import ui.features
from ui.plain import params
from ui.plain.params import ChoiceParam

_SPEC_TYPES = (
    params.IntParam,
    params.FloatParam,
    params.ChoiceParam,
    params.BoolParam,
    params.TextParam,
)


def _specs_in(module) -> list:
    found = []
    for value in vars(module).values():
        values = value if isinstance(value, tuple) else (value,)
        found += [v for v in values if isinstance(v, _SPEC_TYPES)]
    return found


def all_specs() -> list:
    """Every spec defined in ``ui.plain.params`` and ``ui/features/*/specs.py``."""
    specs = _specs_in(params)
    for info in pkgutil.iter_modules(ui.features.__path__):
        specs += _specs_in(importlib.import_module(f"ui.features.{info.name}.specs"))
    return list({spec.key: spec for spec in specs}.values())


def _is_tab(spec) -> bool:
    # A tab spec's options are the tabs' translated labels, not codes.
    return spec.key.endswith("_tab")


SPECS = all_specs()
KEYS = sorted(spec.key for spec in SPECS)
CODES = sorted(
    {o for s in SPECS if isinstance(s, ChoiceParam) and not _is_tab(s) for o in s.options}
)
SNAKE = re.compile(r"(?<![\w\\])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?!\w)")
# Keys that are plain words (base, lang, present) count only when written as a key.
_WORD_KEYS = [k for k in KEYS if "_" not in k]
WORD_KEY = re.compile(
    r"(?<!\w)(?:"
    + "|".join(map(re.escape, _WORD_KEYS))
    + r")\s*=|\((?:"
    + "|".join(map(re.escape, _WORD_KEYS))
    + r")\)"
)
# Codes that are not plain words (tf_old, torch32, t2t, sin_pow2): never shown, even as code.
CODE_WORDS = re.compile(
    r"(?<!\w)(?:"
    + "|".join(re.escape(c) for c in CODES if re.fullmatch(r"[a-z]\w*(_|\d)\w*", c))
    + r")(?!\w)"
)
# Inline code names a library's own function or variable (`div_term`, `rotate_half`).
_INLINE_CODE = re.compile(r"`[^`]*`")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)
_ICON = re.compile(r":material/\w+:")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_TAG = re.compile(r"<[^>]+>")


def visible(text: str) -> str:
    """What a reader sees of a Markdown or Plotly text, less formulas, icons, links."""
    text = _MATH.sub(" ", text)
    text = _ICON.sub(" ", text)
    text = _LINK_TARGET.sub("]", text)
    return _TAG.sub(" ", text)


def problems(text: str) -> list[str]:
    """Why ``text`` shows a key or a code ([] when it is plain)."""
    shown = visible(text)
    found = []
    if shown.strip() in CODES:
        found.append(f"is the option code {shown.strip()!r}")
    found += [f"names the URL key {m.group(0)!r}" for m in WORD_KEY.finditer(shown)]
    found += [f"shows the option code {m.group(0)!r}" for m in CODE_WORDS.finditer(shown)]
    prose = _INLINE_CODE.sub(" ", shown)
    found += [f"has the identifier {m.group(0)!r}" for m in SNAKE.finditer(prose)]
    return found


_PROTO_TEXTS = ("label", "help", "body", "placeholder", "options", "captions")


def _figure_texts(spec: str) -> list[str]:
    fig = json.loads(spec)
    layout, texts = fig.get("layout", {}), []

    def title(node):
        value = (node or {}).get("title")
        return value.get("text") if isinstance(value, dict) else value

    texts.append(title(layout))
    for name, node in layout.items():
        if re.fullmatch(r"[xy]axis\d*|coloraxis\d*|legend\d*", name) and isinstance(node, dict):
            texts += [title(node), title(node.get("colorbar"))]
    texts += [a.get("text") for a in layout.get("annotations", [])]
    for trace in fig.get("data", []):
        texts += [trace.get("name"), title(trace.get("colorbar"))]
    return [t for t in texts if isinstance(t, str)]


def _frame_texts(frame) -> list[str]:
    """The texts of a table: column titles, row names and every text cell."""
    texts = [str(c) for c in frame.columns]
    if not isinstance(frame.index, pd.RangeIndex):
        texts += [str(i) for i in frame.index]
    for column in frame.columns:
        texts += [v for v in frame[column].tolist() if isinstance(v, str)]
    return texts


def screen_texts(at) -> list[tuple[str, str]]:
    """``(where, text)`` for every text of the last run that a reader can see."""
    found = []
    for node in at._tree:
        proto, kind = getattr(node, "proto", None), getattr(node, "type", "")
        if proto is None or kind in ("latex", "code"):
            continue
        if kind == "plotly_chart":
            found += [("chart", t) for t in _figure_texts(proto.spec)]
            continue
        if kind == "dataframe":
            found += [("dataframe", t) for t in _frame_texts(node.value)]
            continue
        for inner in ("popover", "expandable"):  # block labels
            if proto.DESCRIPTOR.fields_by_name.get(inner) and proto.HasField(inner):
                sub = getattr(proto, inner)
                found += [(f"{kind}.{f}", getattr(sub, f)) for f in ("label", "help")]
        for field in _PROTO_TEXTS:
            if field not in proto.DESCRIPTOR.fields_by_name:
                continue
            value = getattr(proto, field)
            values = [value] if isinstance(value, str) else list(value)
            found += [(f"{kind}.{field}", v) for v in values if isinstance(v, str)]
    return [(where, text) for where, text in found if text]


def offending(at) -> list[str]:
    return sorted(
        {
            f"{where}: {text[:90]!r} {why}"
            for where, text in screen_texts(at)
            for why in problems(text)
        }
    )


def test_the_walk_reads_table_cells():
    frame = pd.DataFrame({"implementation": ["tf_old", "Paper"], "layout": ["split", "x"]})
    texts = _frame_texts(frame)
    assert {"implementation", "tf_old", "split"} <= set(texts)
    assert [text for text in texts if problems(text)] == ["tf_old", "split"]


def test_the_checks_catch_keys_codes_and_identifiers():
    assert problems("Head dimension d (rope_head_dim)")
    assert problems("attention_all")
    assert problems("tf_old")
    assert problems("Kept in the URL as lang=en")
    assert problems("omega_next: one pair off")
    assert not problems("Base n of the encoding, $\\omega_i = n^{-2i/d}$")
    assert not problems("Softmax over all keys :material/grid_on:")
    assert not problems("the PyTorch tutorial's `div_term`")
    assert problems("the `tf_old` table")
    assert {"attention_all", "tf_old", "t2t", "torch32", "sin_pow2", "omega_next"} <= set(CODES)
    assert {"seq_len", "rope_head_dim", "wl_sin_a", "lang"} <= set(KEYS)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("entry", "tab", "query"), PAGE_TABS, ids=PAGE_TAB_IDS)
def test_no_key_or_code_on_screen(entry, tab, query, lang):
    at = run_page(script(entry), {**query, "lang": lang}, timeout=120)
    if tab_spec(entry) is not None:
        assert tab, "every tab of a page with tabs is walked"
    found = offending(at)
    print(f"{entry.name}[{tab}] {lang}: {len(found)} offending texts")
    for line in found:
        print("   ", line)
    assert found == [], "\n".join(found)


def test_every_setting_is_named_by_a_label_in_both_languages():
    unlabelled = [spec.key for spec in all_specs() if spec.label_text("en") == spec.key]
    assert unlabelled == []
    for lang in ("en", "zh"):
        for spec in all_specs():
            assert not problems(spec.label_text(lang)), (lang, spec.key)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_notice_names_a_setting_by_its_label(lang):
    from support.views import setting_label

    at = run_page("5_RoPE.py", {"lang": lang, "rope_head_dim": "7", "rope_view": "nope"})
    notice = at.warning[0].value
    print(notice)
    assert setting_label(lang, "rope_head_dim") in notice
    assert setting_label(lang, "rope_view") in notice
    assert "rope_head_dim" not in notice and "rope_view" not in notice
    assert "'nope'" in notice or "“nope”" in notice  # the offending value is shown


@pytest.mark.parametrize("first", ["en", "zh"])
def test_a_choice_link_opens_the_same_view_in_either_language(first):
    """The URL holds the option's code: a link made in one language opens the same
    choice in the other, and choosing in either language writes the code."""
    for lang in ("en", "zh"):
        at = run_page("1_Heatmap.py", {"lang": lang, "hm_framework": "tf_old"})
        assert at.radio(key="hm_framework").value == "tf_old"
        assert at.query_params["hm_framework"] == "tf_old"
    at = run_page("1_Heatmap.py", {"lang": first})
    at.radio(key="hm_framework").set_value("t2t").run()
    assert not at.exception
    assert at.query_params["hm_framework"] == "t2t"  # the code, not its label
    at.radio(key="lang").set_value("en" if first == "zh" else "zh").run()
    assert at.radio(key="hm_framework").value == "t2t"
    assert at.query_params["hm_framework"] == "t2t"
