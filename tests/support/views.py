"""What the cross-page tests (``tests/sweeps/``) iterate over: each menu page with its
URL-bound specs, every (page, tab) view, the specs' extreme URL values, and each
setting's label on screen."""

from __future__ import annotations

import importlib
from pathlib import Path

from ui.plain.params import CARRIED, SHARED, BoolParam, ChoiceParam, FloatParam, IntParam, TextParam
from ui.shared import menu

from .paths import ROOT


def specs_of(entry) -> tuple:
    try:
        module = importlib.import_module(f"ui.features.{entry.name}.specs")
    except ModuleNotFoundError:
        return ()
    return tuple(module.SPECS)


def all_specs(entry) -> tuple:
    return (*CARRIED, *specs_of(entry))


def script(entry) -> Path:
    return ROOT / entry.path


def extreme(spec, which: str) -> str:
    """The spec's smallest or largest acceptable URL value, as text."""
    if hasattr(spec, "extreme"):
        return spec.extreme(which)
    if isinstance(spec, IntParam):
        value = spec.minimum if which == "min" else spec.maximum
        return str(value - (value - spec.minimum) % spec.step)
    if isinstance(spec, FloatParam):
        if which == "min":
            return repr(
                spec.minimum * (1 + 1e-6) + 1e-6 if spec.exclusive_minimum else spec.minimum
            )
        return repr(spec.maximum)
    if isinstance(spec, ChoiceParam):
        return spec.options[0 if which == "min" else -1]
    if isinstance(spec, BoolParam):
        return "false" if which == "min" else "true"
    if isinstance(spec, TextParam):
        return "" if which == "min" else ("词 " * spec.max_chars)[: spec.max_chars]
    raise TypeError(spec)


def largest(entry) -> dict[str, str]:
    """Every numeric setting of the page at its maximum (the heaviest rerun)."""
    query = {
        s.key: extreme(s, "max")
        for s in (*SHARED, *specs_of(entry))
        if isinstance(s, (IntParam, FloatParam))
    }
    return query


def tab_spec(entry):
    """The page's lazy-tab spec (``ui.plain.params.tab_param``), or None."""
    return next((s for s in specs_of(entry) if s.key.endswith("_tab")), None)


def tabs(entry) -> list[tuple[str, dict[str, str]]]:
    """``(name, query)`` opening each lazy tab of the page (its English label); pages
    without tabs give one entry with an empty query."""
    if entry.name == "story":  # the story's steps stand in for tabs: each is walked
        from ui.features.story.view import STEPS

        return [(name, {"step": str(n)}) for n, name in enumerate(STEPS, 1)]
    spec = tab_spec(entry)
    if spec is None:
        return [("", {})]
    module = importlib.import_module(f"ui.features.{entry.name}.specs")
    return [(name, {spec.key: spec.options[i]}) for i, name in enumerate(module.TAB_NAMES)]


def open_tab(entry, query: dict[str, str]) -> str:
    """Name of the tab ``query`` opens (the first when it names none); "" without tabs."""
    spec = tab_spec(entry)
    if spec is None:
        return ""
    names = importlib.import_module(f"ui.features.{entry.name}.specs").TAB_NAMES
    label = query.get(spec.key)
    return names[spec.options.index(label) % len(names)] if label in spec.options else names[0]


# Tabs that may show tables, formulas and text only: the criteria, the row-vs-column
# conventions, and the frameworks tab when the chosen framework's table equals the
# paper's (nothing to draw, a notice says so).
CHARTLESS = {
    ("binary", "criteria"),
    ("rotation", "conventions"),
    ("heatmap", "frameworks"),
    ("schemes", "properties"),  # a table of facts with their sources
}

PAGES = menu.PAGES
IDS = [entry.name for entry in PAGES]
# Every (page, tab): lazy tabs run only when open, so each needs its own runs.
PAGE_TABS = [(entry, name, query) for entry in PAGES for name, query in tabs(entry)]
PAGE_TAB_IDS = [f"{entry.name}[{name}]" if name else entry.name for entry, name, _ in PAGE_TABS]


def every_spec() -> dict:
    """Every URL-bound control of the app by its key: the carried ones and each page's."""
    found = {spec.key: spec for spec in CARRIED}
    for entry in PAGES:
        found |= {spec.key: spec for spec in specs_of(entry)}
    return found


def setting_label(lang: str, key: str) -> str:
    """The label on screen of the setting kept in the URL under ``key``; a key no page
    has (``no_such_setting``) is named as it is, as the unknown-setting notice does."""
    spec = every_spec().get(key)
    return key if spec is None else spec.label_text(lang)
