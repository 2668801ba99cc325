"""Record what every view draws, to prove a refactor changed nothing a visitor sees.

    python tools/capture_views.py record --out before.json      # on the old tree
    python tools/capture_views.py record --out after.json --cases before.json
    python tools/capture_views.py compare before.json after.json

A view is a page script with a query (every lazy tab, every story step, English and
Chinese, desktop and presenter mode). For each, AppTest runs the page through ``app.py``
as a visitor reaches it, and every element it draws (charts, captions, formulas,
widgets, blocks) is kept as its protobuf, in order. ``compare`` exits 1 when any view
differs, naming the first element that does (a chart whose JSON holds the same keys
and values in another order, as a figure rebuilt by the figure cache does, is the same
chart: counted apart, not a difference). ``--cases`` reuses the cases of an earlier
recording, so the two runs need not agree on how pages are listed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A download's file id is drawn at random on every run.
RANDOM_ID = re.compile(r'("deferredFileId": )"[0-9a-f]+"')


def cases() -> list[dict]:
    """Every (script, query) to record, from the menu and the tab specs of the tree."""
    sys.path.insert(0, str(ROOT))
    try:  # the cross-page tests' own list of views
        from tests.support.views import PAGE_TABS
    except ModuleNotFoundError:  # a tree before tests/support/ (issue 30)
        sys.path.insert(0, str(ROOT / "tests"))
        from pages_under_test import PAGE_TABS

    found = []
    for entry, _, query in PAGE_TABS:
        for lang in ("en", "zh"):
            for present in ("false", "true"):
                found.append(
                    {"script": entry.path, "query": {**query, "lang": lang, "present": present}}
                )
    return found


def _record_one(case: dict) -> tuple[str, list[list[str]]]:
    sys.path.insert(0, str(ROOT))
    import streamlit as st
    from google.protobuf.json_format import MessageToJson
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    for key, value in case["query"].items():
        at.query_params[key] = value
    if case["script"] != "app.py":
        at.switch_page(case["script"])
    at.run()
    drawn: list[list[str]] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "DESCRIPTOR"):
            text = MessageToJson(proto, sort_keys=True, indent=None)
            drawn.append([type(node).__name__, RANDOM_ID.sub(r'\1"*"', text)])
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    if at.exception:
        drawn.append(["EXCEPTION", repr([e.message for e in at.exception])])
    return _name(case), drawn


def _name(case: dict) -> str:
    query = "&".join(f"{k}={v}" for k, v in sorted(case["query"].items()))
    return f"{case['script']}?{query}"


def record(out: Path, cases_from: Path | None, workers: int) -> None:
    todo = json.loads(cases_from.read_text())["cases"] if cases_from else cases()
    sys.path.insert(0, str(ROOT / "tools"))
    import capture_views  # by module name: AppTest replaces __main__ in the workers

    with ProcessPoolExecutor(workers) as pool:
        views = dict(pool.map(capture_views._record_one, todo, chunksize=1))
    out.write_text(json.dumps({"cases": todo, "views": views}, ensure_ascii=False))
    digest = hashlib.sha256(json.dumps(views, sort_keys=True).encode()).hexdigest()[:16]
    errors = sum(1 for v in views.values() if v and v[-1][0] == "EXCEPTION")
    print(
        f"{len(views)} views, {sum(map(len, views.values()))} elements, {errors} with an "
        f"exception, digest {digest}"
    )


def _same_chart(x: list[str], y: list[str]) -> bool:
    """Two chart elements equal but for the order of the keys in their Plotly JSON (and
    the element id Streamlit hashes from it): the same figure, drawn the same."""
    a, b = json.loads(x[1]), json.loads(y[1])
    if x[0] != y[0] or "spec" not in a or "spec" not in b:
        return False
    sa, sb = json.loads(a.pop("spec")), json.loads(b.pop("spec"))
    a.pop("id", None), b.pop("id", None)
    return a == b and json.dumps(sa, sort_keys=True) == json.dumps(sb, sort_keys=True)


def compare(before: Path, after: Path) -> int:
    """Exit 1 when a view differs in anything but the key order of a chart's JSON."""
    old, new = (json.loads(p.read_text())["views"] for p in (before, after))
    differ = reordered = 0
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name), new.get(name)
        if a == b:
            continue
        if a is None or b is None:
            differ += 1
            print(f"{name}: only in {'after' if a is None else 'before'}")
            continue
        pairs = list(zip(a, b, strict=False))
        first = next(
            (i for i, (x, y) in enumerate(pairs) if x != y and not _same_chart(x, y)), None
        )
        if first is None and len(a) == len(b):
            reordered += 1
            continue
        differ += 1
        if first is None:
            print(f"{name}: {len(a)} elements before, {len(b)} after")
        else:
            print(
                f"{name}: element {first} ({a[first][0]}) differs:\n  before {a[first][1][:300]}"
                f"\n  after  {b[first][1][:300]}"
            )
    print(
        f"{len(old)} views before, {len(new)} after, {differ} differ, {reordered} differ only "
        "in the key order of a chart's JSON"
    )
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("--cases", type=Path, help="reuse the cases of this recording")
    rec.add_argument("--workers", type=int, default=2)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.cases, args.workers)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
