"""What the cross-page tests iterate over: each menu page with its URL-bound specs."""

from __future__ import annotations

import importlib
from pathlib import Path

from ui import menu
from ui.params import CARRIED, SHARED, BoolParam, ChoiceParam, FloatParam, IntParam, TextParam

ROOT = Path(__file__).resolve().parents[1]


def specs_of(entry) -> tuple:
    try:
        module = importlib.import_module(f"ui.specs.{entry.name}")
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


PAGES = menu.PAGES
IDS = [entry.name for entry in PAGES]
