"""Texts: both languages define the same keys, and the pages only use keys that exist."""

import re
from pathlib import Path

import pytest
from support.apptest import run_page
from support.screen import notice_text
from support.views import setting_label

from ui.features.rope import specs as rope_specs
from ui.features.wavelengths import specs as wl_specs
from ui.plain import params
from ui.plain.texts import LANGUAGES, catalogue, text

ROOT = Path(__file__).resolve().parents[2]


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


BAD_VALUES = [  # (spec, raw): one per way a setting can be wrong
    (params.SEQ_LEN, "abc"),
    (params.SEQ_LEN, "2.5"),
    (params.SEQ_LEN, "9000"),
    (params.D_MODEL, "7"),
    (params.BASE, "1"),
    (params.LANG, "fr"),
    (params.PRESENT, "maybe"),
    (rope_specs.TEXT, "x" * 1000),
    (wl_specs.DIMS, ""),
    (wl_specs.DIMS, "-1"),
    (wl_specs.DIMS, ",".join(str(i) for i in range(13))),
]


@pytest.mark.parametrize(("spec", "raw"), BAD_VALUES, ids=lambda v: str(v)[:12])
def test_every_invalid_setting_can_be_said_in_both_languages(spec, raw):
    with pytest.raises(params.ParamError) as caught:
        spec.parse(raw)
    error = caught.value
    assert str(error) == text("en", f"param.{error.code}", **error.fields)
    said = text("zh", f"param.{error.code}", **error.fields)
    assert spec.key in said and re.search(r"[\u4e00-\u9fff]", said), said


def test_every_param_text_is_raised_by_some_bad_value():
    raised = set()
    for spec, raw in BAD_VALUES:
        try:
            spec.parse(raw)
        except params.ParamError as error:
            raised.add(error.code)
    assert raised == {k.removeprefix("param.") for k in catalogue("en") if k.startswith("param.")}


@pytest.mark.parametrize(
    ("lang", "fragment"), [("en", "'3.7' is not a whole number"), ("zh", "“3.7” 不是整数")]
)
def test_a_bad_link_value_is_explained_in_the_pages_language(lang, fragment):
    at = run_page("4_Rotation.py", {"lang": lang, "rot_pair": "3.7"})
    notice = notice_text(at)
    label = setting_label(lang, "rot_pair")  # named by its label, not its URL key (#20)
    assert f"{label}{'：' if lang == 'zh' else ':'}" in notice and fragment in notice, notice
    assert "rot_pair" not in notice, notice


def test_a_text_edited_on_a_running_server_is_read_after_streamlit_reloads_the_app(
    monkeypatch,
):
    """On a file change Streamlit evicts every module of the app from sys.modules
    (``LocalSourcesWatcher``), ``ui.plain.texts`` included, and the next run imports them
    again: the catalogue merged at import must then hold the edited text."""
    import importlib
    import sys
    import types

    from ui.plain.texts import text_modules

    evicted = ["ui.plain.texts", *text_modules("en"), *text_modules("zh")]
    home = "ui.features.home.texts_en"
    assert home in evicted  # the home page's English texts are one of the merged modules
    edited = types.ModuleType(home)  # the file as it is after the edit
    edited.TEXTS = {**importlib.import_module(home).TEXTS, "home.added": "new"}
    for name in evicted:
        if name in sys.modules:
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, home, edited)
    reloaded = importlib.import_module("ui.plain.texts")
    assert reloaded.text("en", "home.added") == "new"
    assert reloaded.text("en", "home.title") == text("en", "home.title")
    assert "home.added" not in catalogue("en")  # the catalogue this test started with


def test_every_session_shares_one_read_only_catalogue():
    with pytest.raises(TypeError):
        catalogue("en")["home.title"] = "changed by one session for all"
