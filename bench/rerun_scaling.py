"""Rerun time of each page at its defaults vs at its largest settings (issue #7).

``python bench/rerun_scaling.py [--repeats N] [--quick] [--pages heatmap,rope]``

Pages are read from ``ui.shared.menu.PAGES`` when the script runs. "Largest settings" are
``seq_len=8192``, ``d_model=4096`` and, for every ``IntParam`` / ``FloatParam`` in the
page's ``ui.specs.<name>.SPECS``, its maximum (the largest value on the spec's step
grid). Other controls (choices, toggles, texts) stay at their defaults. Pages with lazy
tabs (a ``*_tab`` spec, ``ui.specs.tab_param``) run only the open tab's work, so each tab
is measured on its own, as ``page [tab]``.

Two times per setting, each the median of ``--repeats`` runs in Streamlit's AppTest
(the script in this process, no browser), default and largest runs taking turns:

- cold: ``st.cache_data`` cleared, a fresh AppTest, first run: what a visitor waits
  for after moving a slider to a value nobody asked for yet;
- warm: the same AppTest run again: a rerun whose computations hit the cache.

Target: largest / default <= 3 for both. Exit status 1 if a page misses it or fails.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from ui.plain.params import FloatParam, IntParam  # noqa: E402
from ui.plain.texts import LANGUAGES  # noqa: E402
from ui.shared import menu  # noqa: E402

TARGET = 3.0
SHARED_MAX = {"seq_len": "8192", "d_model": "4096"}


def page_specs(name: str) -> tuple:
    try:
        module = importlib.import_module(f"ui.features.{name}.specs")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(module, "SPECS", ()))


def largest_value(spec) -> str | None:
    if isinstance(spec, IntParam):
        steps = (spec.maximum - spec.minimum) // spec.step
        return str(spec.minimum + steps * spec.step)
    if isinstance(spec, FloatParam):
        return repr(float(spec.maximum))
    return None


def largest_settings(name: str) -> dict[str, str]:
    query = dict(SHARED_MAX)
    for spec in page_specs(name):
        value = largest_value(spec)
        if value is not None:
            query[spec.key] = value
    return query


def tab_queries(name: str) -> list[tuple[str, dict[str, str]]]:
    """``(label, query)`` per tab of a page with lazy tabs; one unnamed entry otherwise."""
    for spec in page_specs(name):
        if spec.key.endswith("_tab"):
            tabs = spec.options[len(LANGUAGES) * len(spec.options) // (len(LANGUAGES) + 1) :]
            return [(f"{name} [{tab}]", {spec.key: tab}) for tab in tabs]  # the tab names
    return [(name, {})]


class Failed(RuntimeError):
    pass


def _check(at: AppTest, label: str) -> None:
    if at.exception:
        raise Failed(f"{label}: {at.exception[0].message[:200]}")


def cold_run(path: Path, query: dict[str, str], timeout: float) -> tuple[float, AppTest]:
    st.cache_data.clear()
    # Pages run inside the app (as in a browser): a page file run as the entrypoint
    # cannot resolve the menu's page links.
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    if path.name != "app.py":
        at.switch_page(str(path.relative_to(ROOT)))
    for key, value in query.items():
        at.query_params[key] = value
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    _check(at, "cold run")
    return elapsed, at


def warm_run(at: AppTest) -> float:
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    _check(at, "warm rerun")
    return elapsed


def measure(path: Path, settings: dict[str, dict], repeats: int, timeout: float) -> dict:
    """Median cold and warm times per setting; the settings take turns in each round."""
    times = {label: {"cold": [], "warm": []} for label in settings}
    for query in settings.values():  # warm-up: imports, first compilations
        warm_run(cold_run(path, query, timeout)[1])
    for _ in range(repeats):
        for label, query in settings.items():
            cold, at = cold_run(path, query, timeout)
            times[label]["cold"].append(cold)
            times[label]["warm"].append(warm_run(at))
            notices = [w.value for w in at.warning]
            times[label]["notices"] = notices
    return {
        label: {
            "cold": statistics.median(t["cold"]),
            "warm": statistics.median(t["warm"]),
            "notices": t.get("notices", []),
        }
        for label, t in times.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one repeat per setting")
    parser.add_argument("--pages", help="comma-separated page ids (default: all in the menu)")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    logging.disable(logging.WARNING)  # no "missing ScriptRunContext" chatter
    wanted = set(args.pages.split(",")) if args.pages else None
    pages = [p for p in menu.PAGES if wanted is None or p.name in wanted]

    print(f"# rerun scaling (AppTest), median of {repeats}; target largest/default <= {TARGET}")
    print(f"pages found: {', '.join(p.name for p in pages) or 'none'}")
    rows, failed = [], False
    for page in pages:
        for label, tab in tab_queries(page.name):
            try:
                largest = {**largest_settings(page.name), **tab}
                print(f"- {label}: largest = {largest}", flush=True)
                settings = {"default": dict(tab), "largest": largest}
                result = measure(ROOT / page.path, settings, repeats, args.timeout)
            except Exception as error:  # a page under construction: report it, go on
                rows.append((label, None, f"{type(error).__name__}: {str(error)[:200]}"))
                failed = True
                continue
            rows.append((label, result, ""))
            for notice in result["largest"]["notices"]:
                print(f"  notice at largest settings: {notice[:160]!r}")

    print()
    print(
        "| page | default cold (s) | largest cold (s) | ratio | "
        "default warm (s) | largest warm (s) | ratio | result |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name, result, error in rows:
        if result is None:
            print(f"| {name} | | | | | | | ERROR: {error} |")
            continue
        d, big = result["default"], result["largest"]
        cold_ratio, warm_ratio = big["cold"] / d["cold"], big["warm"] / d["warm"]
        ok = cold_ratio <= TARGET and warm_ratio <= TARGET
        failed |= not ok
        print(
            f"| {name} | {d['cold']:.3f} | {big['cold']:.3f} | {cold_ratio:.2f}x | "
            f"{d['warm']:.3f} | {big['warm']:.3f} | {warm_ratio:.2f}x | "
            f"{'PASS' if ok else 'FAIL'} |"
        )
    if not rows:
        print("no pages to measure")
        failed = True
    print()
    print("RESULT:", "FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
