"""The app shell: home page, shared controls bound to the URL, menu, notices."""

from itertools import pairwise
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest
from support.apptest import run_page
from support.paths import APP
from support.screen import decode, figures

from ui.plain.params import BASE, D_MODEL, SEQ_LEN
from ui.shared import menu


def links(at):
    return [(el.proto.page, parse_qs(el.proto.query_string)) for el in at.get("page_link")]


def test_home_page_runs_and_draws_the_live_heatmap():
    at = run_page()
    (fig,) = figures(at)
    z = decode(fig["data"][0]["z"])
    assert z.shape == (SEQ_LEN.default, D_MODEL.default)
    assert at.title[0].value == "PosEnc Explorer"


def test_shared_controls_have_exactly_the_contract_keys():
    at = run_page()
    assert [n.key for n in at.number_input] == ["seq_len", "d_model", "base"]
    assert [s.key for s in at.select_slider] == ["seq_len_coarse", "d_model_coarse"]
    assert not at.slider  # a 1 .. 8192 slider cannot be dragged to a value


def test_query_parameters_reproduce_a_view():
    at = run_page(query={"seq_len": "4", "d_model": "6", "base": "100"})
    assert at.number_input(key="seq_len").value == 4
    assert at.number_input(key="d_model").value == 6
    assert at.number_input(key="base").value == 100.0
    z = decode(figures(at)[0]["data"][0]["z"])
    assert z.shape == (4, 6)
    assert abs(z[1, 0] - 0.8414709848) < 1e-6  # sin(1): drawn from posenc


def test_moving_a_slider_redraws_the_chart():
    at = run_page()
    at.number_input(key="seq_len").set_value(7).run()
    assert not at.exception
    assert decode(figures(at)[0]["data"][0]["z"]).shape[0] == 7


def test_length_and_width_have_stops_a_drag_can_hit_and_open_any_url_value_exactly():
    at = run_page(query={"seq_len": "4097", "d_model": "130"})
    assert at.number_input(key="seq_len").value == 4097
    assert at.number_input(key="d_model").value == 130
    for spec, value in ((SEQ_LEN, 4097), (D_MODEL, 130)):
        coarse = at.select_slider(key=f"{spec.key}_coarse")
        stops = [int(v) for v in coarse.options]
        assert coarse.value == value and value in stops
        assert len(stops) <= 45  # >= ~5 px per stop on a 220 px sidebar slider
        assert max(b / a for a, b in pairwise(stops[15:])) <= 2  # log-spaced
    at.select_slider(key="seq_len_coarse").set_value(100).run()
    assert not at.exception
    assert at.number_input(key="seq_len").value == 100
    assert at.query_params["seq_len"] == "100"


def test_odd_d_model_in_the_url_is_replaced_by_the_default():
    at = run_page(query={"d_model": "7", "seq_len": "9"})
    assert at.number_input(key="d_model").value == D_MODEL.default
    assert at.number_input(key="seq_len").value == 9


def test_chinese_texts_when_lang_is_zh():
    at = run_page(query={"lang": "zh"})
    assert at.title[0].value == "位置编码探索器"
    assert at.radio(key="lang").value == "zh"
    hover = figures(at)[0]["data"][0]["hovertemplate"]  # no English word left in the hover
    assert hover.startswith("位置 %{y}<br>维度 %{x}<br>值 = %{z"), hover


def test_menu_lists_only_existing_pages_and_carries_settings():
    at = run_page(query={"seq_len": "12", "lang": "zh"})
    drawn = links(at)
    menu_pages = [page for page, _ in drawn][: len(menu.PAGES)]
    assert len(menu_pages) == len(menu.PAGES)
    for _, params in drawn:
        assert params["seq_len"] == ["12"] and params["lang"] == ["zh"]
        assert "d_model" not in params  # defaults stay out of links


def test_the_menu_lists_each_page_file_once():
    # A merge once listed Start here twice; nothing else noticed.
    paths = [page.path for page in menu.ALL_PAGES]
    assert len(set(paths)) == len(paths)
    assert len({page.name for page in menu.ALL_PAGES}) == len(paths)
    files = {"app.py", *(f"pages/{f.name}" for f in (menu.ROOT / "pages").glob("*.py"))}
    assert set(paths) == files  # every page file has a menu entry, and no entry lacks a file


def test_values_are_carried_from_page_to_page():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["d_model"] = "16"
    at.run()
    for page in menu.PAGES[1:]:
        at.switch_page(page.path).run()
        assert not at.exception
        assert at.session_state["_posenc_carry"]["d_model"] == 16


def test_presenter_mode_is_a_bound_toggle():
    at = run_page(query={"present": "true"})
    assert at.checkbox(key="present").value is True


def test_the_controls_take_their_limits_from_the_one_definition():
    """The boxes and the coarse sliders end where the specs say (not at a second copy of
    the numbers), and a base at the excluded minimum is refused."""
    at = run_page()
    for spec in (SEQ_LEN, D_MODEL):
        box = at.number_input(key=spec.key)
        assert (box.min, box.max, box.step) == (spec.minimum, spec.maximum, spec.step)
        stops = [int(v) for v in at.select_slider(key=f"{spec.key}_coarse").options]
        assert (stops[0], stops[-1]) == (spec.minimum, spec.maximum)
    box = at.number_input(key="base")
    assert box.max == BASE.maximum and BASE.minimum < box.min < BASE.minimum + 1e-6


def test_link_to_this_view_lists_every_changed_setting():
    at = run_page(query={"seq_len": "12", "lang": "zh"})
    assert at.code[0].value == "?seq_len=12&lang=zh"
    at.number_input(key="d_model").set_value(20).run()
    assert at.code[0].value == "?seq_len=12&d_model=20&lang=zh"


def test_link_to_this_view_at_defaults_says_so():
    at = run_page()
    assert "defaults" in at.code[0].value


def test_blas_runs_single_threaded_in_the_app():
    import threadpoolctl

    import ui  # noqa: F401  (importing the UI layer sets the limit)

    assert {
        pool["num_threads"]
        for pool in threadpoolctl.threadpool_info()
        if pool["user_api"] == "blas"
    } == {1}


def test_the_ui_layer_imports_pandas_completely_before_any_figure():
    # Guards the import race seen under load (Plotly reads sys.modules["pandas"]).
    import subprocess
    import sys

    code = "import ui, sys; m = sys.modules['pandas']; assert hasattr(m, 'Series')"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=APP.parent)


def test_presenter_mode_enlarges_the_chart():
    normal = figures(run_page())[0]["layout"]["height"]
    presenting = figures(run_page(query={"present": "true"}))[0]["layout"]["height"]
    assert presenting == int(normal * 1.5)


def test_tab_sections_must_be_the_tabs_of_their_spec_in_order():
    from ui.features.binary import specs as binary
    from ui.shared.controls import run_open_tab

    names = list(binary.TAB_NAMES)
    swapped = [names[1], names[0], *names[2:]]
    for wrong in (swapped, names[:-1]):
        with pytest.raises(ValueError, match="bin_tab"):
            run_open_tab(binary.TAB, "binary", dict.fromkeys(wrong, lambda: None))
