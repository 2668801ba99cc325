"""CONTRIBUTING.md's worked example is true (issue 30): its code blocks, applied to a copy
of the tree, add a control with a chart that the page draws, touching one page folder only.

Each block's fence names its file and place: ``{path: end}`` appends to the file,
``{path: texts}`` adds entries to its ``TEXTS`` dict, ``{path: end of NAME}`` appends to
the body of the function ``NAME``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.tree import copy_tree

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("app.py", "pages", "ui", "posenc", ".streamlit", "assets", "pyproject.toml")
BLOCK = re.compile(r"```python \{(?P<path>[^:}]+): (?P<where>[^}]+)\}\n(?P<code>.*?)```", re.S)


def example_blocks() -> list[tuple[str, str, str]]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("## Add a control with a chart") : text.index("## Rules")]
    return [(m["path"], m["where"], m["code"]) for m in BLOCK.finditer(section)]


def apply(root: Path, path: str, where: str, code: str) -> None:
    target = root / path
    source = target.read_text(encoding="utf-8")
    if where == "end":
        source = source.rstrip("\n") + "\n\n\n" + code
    elif where == "texts":
        end = source.rindex("}")
        source = source[:end] + code + source[end:]
    elif where.startswith("end of "):
        name = where.removeprefix("end of ")
        node = next(
            n
            for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.FunctionDef) and n.name == name
        )
        lines = source.splitlines(keepends=True)
        indent = re.match(r"\s*", lines[node.body[-1].lineno - 1]).group(0)
        lines.insert(node.end_lineno, textwrap.indent(code, indent))
        source = "".join(lines)
    else:
        raise ValueError(f"unknown place {where!r} in CONTRIBUTING.md")
    target.write_text(source, encoding="utf-8")


# Run in the copy, in a process of its own (this one has the real ui package imported).
DRAW = """
import base64, json, sys
import numpy as np
from streamlit.testing.v1 import AppTest
def notice(lang):  # a value out of range in the link: the notice names the control
    bad = AppTest.from_file("app.py", default_timeout=120)
    for key, value in {"rope_tab": "decay", "rope_wl_pairs": "999", "lang": lang}.items():
        bad.query_params[key] = value
    bad.switch_page("pages/5_RoPE.py").run()
    return " ".join(w.value for w in bad.warning)
at = AppTest.from_file("app.py", default_timeout=120)
for key, value in {"rope_tab": "decay", "rope_wl_pairs": "8", "lang": sys.argv[1]}.items():
    at.query_params[key] = value
at.switch_page("pages/5_RoPE.py").run()
charts = {el.proto.id.rsplit("-", 1)[-1]: json.loads(el.proto.spec)
          for el in at.get("plotly_chart")}
trace = charts.get("rope_wl_chart", {}).get("data", [{}])[0]
print(json.dumps({"errors": [e.message for e in at.exception],
                  "labels": [s.label for s in at.slider], "charts": sorted(charts),
                  "bars": trace.get("type"), "pairs": len(np.frombuffer(base64.b64decode(
                      trace["x"]["bdata"]), trace["x"]["dtype"])) if "x" in trace else 0,
                  "notice": notice(sys.argv[1])}))
"""


def test_the_example_has_a_block_for_each_kind_of_file():
    places = {(path, where) for path, where, _ in example_blocks()}
    folder = "ui/features/rope/"
    assert {(folder + "specs.py", "end"), (folder + "figures.py", "end")} <= places
    assert {(folder + "texts_en.py", "texts"), (folder + "texts_zh.py", "texts")} <= places
    assert (folder + "page.py", "end of decay_tab") in places


def test_the_worked_example_adds_a_chart_touching_one_page_folder(tmp_path):
    root = copy_tree(tmp_path, COPIED)
    blocks = example_blocks()
    for path, where, code in blocks:
        apply(root, path, where, code)
    touched = {path for path, _, _ in blocks}
    assert all(path.startswith("ui/features/rope/") for path in touched), touched
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    for lang, label in (("en", "Pairs shown"), ("zh", "显示的维度对数")):
        done = subprocess.run(
            [sys.executable, "-c", DRAW, lang],
            cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        drawn = json.loads(done.stdout.strip().splitlines()[-1])
        assert drawn["errors"] == [] and label in drawn["labels"]
        assert label in drawn["notice"] and "rope_wl_pairs" not in drawn["notice"]
        assert drawn["bars"] == "bar" and drawn["pairs"] == 8, drawn["charts"]


@pytest.mark.parametrize("where", ["end", "texts", "end of decay_tab"])
def test_a_block_lands_where_its_fence_says(tmp_path, where):
    target = tmp_path / "ui/features/rope"
    target.mkdir(parents=True)
    (target / "m.py").write_text('TEXTS = {\n    "a": "b",\n}\n\n\ndef decay_tab():\n    x = 1\n')
    apply(
        tmp_path,
        "ui/features/rope/m.py",
        where,
        '    "c": "d",\n' if where == "texts" else "y = 2\n",
    )
    source = (target / "m.py").read_text()
    ast.parse(source)
    expected = {"end": source.rstrip().endswith("y = 2"), "texts": '"c": "d",\n}' in source,
                "end of decay_tab": "    x = 1\n    y = 2\n" in source}  # fmt: skip
    assert expected[where], source
