"""Texts: both languages define the same keys, and the pages only use keys that exist."""

import re
from pathlib import Path

import pytest

from ui.texts import LANGUAGES, catalogue, text

ROOT = Path(__file__).resolve().parents[1]


def test_both_languages_define_the_same_keys():
    en, zh = catalogue("en"), catalogue("zh")
    assert sorted(en.keys() - zh.keys()) == [], "missing in zh"
    assert sorted(zh.keys() - en.keys()) == [], "missing in en"


def test_placeholders_agree_between_languages():
    en, zh = catalogue("en"), catalogue("zh")
    field = re.compile(r"{(\w+)")
    for key in en:
        assert set(field.findall(en[key])) == set(field.findall(zh[key])), key


def test_no_text_is_empty():
    for lang in LANGUAGES:
        assert [k for k, v in catalogue(lang).items() if not v.strip()] == []


def test_every_key_used_in_code_exists():
    used = set()
    sources = [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.glob("ui/**/*.py")]
    for path in sources:
        if "texts" in path.parts:
            continue
        used |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", path.read_text()))
    missing = sorted(key for key in used if key not in catalogue("en"))
    assert missing == []


def test_chinese_texts_are_chinese():
    zh = catalogue("zh")
    han = re.compile(r"[\u4e00-\u9fff]")
    latin_only = [k for k, v in zh.items() if not han.search(v) and len(v) > 20]
    assert latin_only == []


def test_unknown_language_is_rejected():
    with pytest.raises(ValueError, match="lang"):
        text("fr", "home.title")
