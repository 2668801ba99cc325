"""Chinese fixes (issue #20, section 7): one term per idea, unambiguous ratios, and the
Heatmap page's sentence split into characters like the RoPE page's."""

from __future__ import annotations

import json
import re

import pytest
from support.apptest import run_page
from support.screen import chart, decode

from ui.features.heatmap.data import tokens
from ui.features.rope.data import tokenize
from ui.plain.texts import catalogue

ZH = catalogue("zh")
SENTENCE = "我是一个机器人"


def found(pattern: str) -> dict[str, str]:
    """The Chinese texts matching ``pattern`` outside their {placeholders}."""
    return {k: v for k, v in ZH.items() if re.search(pattern, re.sub(r"\{\w*\}", "", v))}


@pytest.mark.parametrize(
    "pattern",
    [
        r"慢[^，。；：]{0,12}倍",  # "慢 s 倍": slower by, or to, s times?
        r"近了?[^，。；：]{0,6}倍",  # "近了 s 倍"
        r"长 ?π ?倍",
    ],
)
def test_no_ambiguous_times_slower_or_closer(pattern):
    assert found(pattern) == {}


def test_ratios_say_what_is_divided_or_multiplied():
    assert "转速都降为 1/s" in ZH["rope.yarn_turned_over"]
    assert "转速降为 1/s" in ZH["rope.ext_notice_llama3"]
    assert "间距也压缩为 1/s" in ZH["rope.ext_notice_linear"]
    assert "波长就变为 b^(2/d) 倍" in ZH["wavelengths.curves_notice"]
    assert "频率都减半" in ZH["binary.counter_notice"]


@pytest.mark.parametrize(
    ("pattern", "term"),
    [
        ("分量对", "维度对"),
        (r"(?i)\btokens?\b", "词元"),
        (r"(split|interleaved|交错|对半|前后分半) ?排列", "排布"),
    ],
)
def test_one_term_for_pairs_tokens_and_layouts(pattern, term):
    assert found(pattern) == {}
    assert found(term)


def test_reworded_chinese_texts():
    assert "只要过了前几个位置，就会把词的信息淹没" in ZH["heatmap.emb_notice"]
    assert "需要显式注入位置信息" in ZH["home.why"] and "被告知" not in ZH["home.why"]
    assert "向后平移 k 个位置，等价于右乘一个固定矩阵 T(k)" in ZH["rotation.intro"]
    assert "对对" not in ZH["rope.pair_score"]
    assert "笔误" in ZH["heatmap.seed_notes"] and "token" not in ZH["heatmap.seed_notes"]
    assert (ZH["wavelengths.tab_forms"], ZH["binary.tab_steps"]) == ("浮点精度", "相邻距离")
    assert ZH["rope.method_linear"] == "位置插值（PI）"
    assert found("线性插值") == {}  # PI is called by its name everywhere


def test_the_heatmap_uses_the_rope_pages_tokenizer_keeping_the_case():
    assert tokens(SENTENCE) == (list(tokenize(SENTENCE)), 7)
    assert tokens("I am a robot.") == (["I", "am", "a", "robot", "."], 5)


def test_a_chinese_sentence_gives_one_heatmap_row_per_character():
    at = run_page("1_Heatmap.py", {"lang": "zh", "hm_sentence": SENTENCE})
    trace = chart(at, "hm_table")["data"][0]
    assert decode(trace["z"]).shape[0] == 7
    labels = json.dumps(trace["y"], ensure_ascii=False)
    assert all(ch in labels for ch in SENTENCE)
    assert "L = 7" in at.sidebar.info[0].value


def test_the_sentence_placeholder_is_chinese_in_chinese():
    at = run_page("1_Heatmap.py", {"lang": "zh"})
    placeholder = at.text_input(key="hm_sentence").placeholder
    assert placeholder == ZH["heatmap.sentence_placeholder"]
    assert SENTENCE in placeholder and "robot" not in placeholder


def test_no_english_option_names_or_variables_in_chinese_prose():
    """Option codes (split, spread, same, dynamic) and variables (step, count) are shown in
    Chinese; inline code, formulas and placeholders aside."""
    words = r"(?<![A-Za-z_])(split|interleaved|spread|same|dynamic|step|count)(?![A-Za-z_])"
    left = {k: v for k, v in ZH.items()
            if re.search(words, re.sub(r"`[^`]*`|\$[^$]*\$|\{\w*\}", "", v))}  # fmt: skip
    assert left == {}
    assert not found("对半") or all("前后分半" in v for v in found("对半").values())
