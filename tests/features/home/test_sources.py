"""The five source articles (issue #20, section 2): named once on Home, called by their
short names everywhere else; "seed" / "种子" only ever means the random seed."""

from __future__ import annotations

import re

import pytest
from support.apptest import run_page

from ui.plain.texts import LANGUAGES, catalogue

# The articles' own titles (the first lines of the source files), and the original of the
# translated tutorial.
TITLES = (
    "Transformer中的位置编码",
    "Transformer中的Positional Encoding",
    "位置编码",
    "Transformer模型详解02-Positional Encoding(位置编码)",
    "变压器模型位置编码的温和介绍，第一部分",
)
ORIGINAL = "A Gentle Introduction to Positional Encoding in Transformer Models, Part 1"
SHORT_NAMES = {
    "en": (
        "overview article",
        "binary-counter article",
        "RoPE article",
        "evolution article",
        "Gentle Introduction",
    ),
    "zh": ("概览篇", "二进制篇", "RoPE 篇", "演进篇", "入门篇"),
}
# An article called by its file number: "seed 003", "Seeds 000 and 003", "原文 004",
# "seeds 003/004", "(000, 001, 003)".
NUMBERED = re.compile(
    r"(seeds?|原文|种子|articles?|文章|篇)\s*0\d\d|\b0\d\d\s*(/|、|,|，|和|and)\s*0\d\d\b",
    re.IGNORECASE,
)
SEED_WORD = re.compile(r"\bseed(s|ed)?\b", re.IGNORECASE)


def sources(lang: str):
    """Home's Sources popover: (its label, its Markdown as one string)."""
    at = run_page(None, {"lang": lang})
    box = next(
        b for b in at.get("popover") if b.proto.popover.label == catalogue(lang)["home.sources"]
    )
    return box.proto.popover.label, "\n".join(m.value for m in box.markdown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_calls_an_article_by_its_file_number(lang):
    numbered = {k: m.group(0) for k, v in catalogue(lang).items() if (m := NUMBERED.search(v))}
    assert numbered == {}


def test_seed_in_an_english_text_is_always_the_random_seed():
    wrong = {
        key: value[max(0, m.start() - 20) : m.end() + 10]
        for key, value in catalogue("en").items()
        for m in SEED_WORD.finditer(value)
        if not value[: m.start()].lower().endswith("random ")
    }
    assert wrong == {}


def test_seed_in_a_chinese_text_is_always_the_random_seed():
    # URL keys such as hm_seed may stay: they are codes, not words.
    wrong = {
        k: v for k, v in catalogue("zh").items() if re.search(r"(?<!随机)种子|\bseed", v, re.I)
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_lists_the_five_sources_with_their_titles_and_short_names(lang):
    label, listed = sources(lang)
    assert "5" in label or "五" in label or "five" in label
    items = [line for line in listed.splitlines() if line.startswith("- ")]
    assert len(items) == 5
    for item, title, name in zip(items, TITLES, SHORT_NAMES[lang], strict=True):
        assert f"《{title}》" in item
        assert f"**{name}**" in item or f"**The {name}**" in item
    assert ORIGINAL in items[4] and "machinelearningmastery.com" in items[4]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_call_every_article_by_its_short_name(lang):
    others = " ".join(v for k, v in catalogue(lang).items() if not k.startswith("home."))
    unused = [name for name in SHORT_NAMES[lang] if name not in others]
    assert unused == []
