"""Deliberate mutations: does the test suite still catch the bugs that matter? (issue #25)

Each mutation below plants one bug a user would see (a wrong formula, a notice that
is not shown, text from a URL not escaped, ...) in a copy of the tracked files
(``git ls-files``; the checkout itself is never touched), runs the tests expected to
catch it, and records whether they failed (*killed*) or passed (*survived*). A
survivor means the suite lost the coverage that mutation names.

Usage::

    python bench/mutations.py              # every mutation, Markdown table on stdout
    python bench/mutations.py --list       # the table of mutations, nothing run
    python bench/mutations.py --only rope_pairing --only alibi_odd_slopes

Exit status 0 when every mutation is killed, 1 when one survives (or its run ends
in a timeout or a pytest usage error: a stale target). ``tests/house/test_mutations_table.py``
checks that every snippet still occurs exactly once and every target exists, so a
refactor that moves a snippet fails a cheap test instead of this run.

``--jobs 1`` (default) runs one mutation at a time: the machine has 2 cores, and
page tests (Streamlit AppTest) take most of a minute each.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 600  # seconds per mutation; a mutation that hangs the tests counts as not killed
PYTEST = ["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
if importlib.util.find_spec("xdist"):  # pyproject's addopts spread tests over workers:
    PYTEST += ["-n", "0"]  # one process per mutation (--jobs), and -x stops at once


@dataclass(frozen=True)
class Mutation:
    name: str
    path: str  # file in the repository
    old: str  # exact source snippet, must occur exactly once
    new: str  # its replacement
    bug: str  # what a user would see
    targets: tuple[str, ...]  # test files or node ids expected to catch it
    args: tuple[str, ...] = field(default=())  # extra pytest args (-k, -m)
    page: bool = False  # guarded only by page (AppTest) tests

    def command(self) -> list[str]:
        return [sys.executable, "-m", "pytest", *PYTEST, *self.args, *self.targets]


MUTATIONS = (
    # ------------------------------------------------------------------ posenc formulas
    Mutation(
        "sin_exponent_i_over_d",
        "posenc/sinusoidal.py",
        "base ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)",
        "base ** (-np.arange(0, d_model // 2, dtype=np.float64) / d_model)",
        "sinusoidal frequencies use base^(-i/d) instead of base^(-2i/d): every table wrong",
        ("tests/posenc/test_sinusoidal.py",),
    ),
    Mutation(
        "sin_split_cos_first",
        "posenc/sinusoidal.py",
        "out[:, :half] = z.real\n        out[:, half:] = z.imag",
        "out[:, :half] = z.imag\n        out[:, half:] = z.real",
        'the "split" (TensorFlow) layout puts the cosines first',
        ("tests/posenc/test_sinusoidal.py",),
    ),
    Mutation(
        "encode_split_is_interleaved",
        "posenc/sinusoidal.py",
        "return np.concatenate([sin, cos], axis=-1)",
        "return np.stack([sin, cos], axis=-1).reshape(positions.size, 2 * omega.size)",
        'encode_positions(layout="split") returns the interleaved layout',
        ("tests/posenc/test_shift.py", "tests/posenc/test_sinusoidal.py"),
    ),
    Mutation(
        "rotation_sign",
        "posenc/rotation.py",
        "matrix[s_idx, c_idx] = -sin\n    matrix[c_idx, s_idx] = sin",
        "matrix[s_idx, c_idx] = sin\n    matrix[c_idx, s_idx] = -sin",
        "T(k) rotates the wrong way: PE[p] T(k) gives PE[p - k], not PE[p + k]",
        ("tests/posenc/test_rotation_matrix.py",),
    ),
    Mutation(
        "rope_pairing_swapped",
        "posenc/rope.py",
        "layout = check_layout(layout)\n    n = x.shape[-2]",
        'layout = {"interleaved": "split", "split": "interleaved"}[check_layout(layout)]\n'
        "    n = x.shape[-2]",
        "RoPE pairs dimensions (j, j + d/2) when asked for (2j, 2j + 1) and vice versa",
        ("tests/posenc/test_rope.py",),
    ),
    Mutation(
        "ntk_exponent",
        "posenc/rope.py",
        "head_dim / (head_dim - 2)",
        "head_dim / (head_dim - 1)",
        "NTK-aware scaling stretches the base by the wrong exponent d/(d-1)",
        ("tests/posenc/test_rope.py",),
    ),
    Mutation(
        "yarn_beta_fast",
        "posenc/rope.py",
        "YARN_BETA_FAST = 32.0",
        "YARN_BETA_FAST = 16.0",
        "YaRN's ramp starts at 16 turns instead of the paper's 32: wrong extended frequencies",
        ("tests/posenc/test_rope.py",),
    ),
    Mutation(
        "linear_scaling_multiplies",
        "posenc/rope.py",
        'if scaling == "linear":\n        return theta / factor, 1.0',
        'if scaling == "linear":\n        return theta * factor, 1.0',
        "position interpolation speeds the rotations up instead of slowing them down",
        ("tests/posenc/test_rope.py", "tests/features/rope/test_rope_models.py"),
    ),
    Mutation(
        "alibi_odd_slopes",
        "posenc/alibi.py",
        "np.exp2(-4.0 * odd / n0)",
        "np.exp2(-8.0 * odd / n0)",
        "ALiBi with a head count not a power of two (e.g. 12) gets the wrong extra slopes",
        ("tests/posenc/test_alibi_t5.py",),
    ),
    Mutation(
        "t5_last_bucket_overflows",
        "posenc/t5.py",
        "np.minimum(large, half - 1)",
        "np.minimum(large, half)",
        "T5 distances past max_distance spill into the other direction's first bucket",
        ("tests/posenc/test_alibi_t5.py",),
    ),
    Mutation(
        "base_range_check_removed",
        "posenc/_validate.py",
        'return check_real("base", base, greater=1.0)',
        'return check_real("base", base)',
        "base <= 1 is accepted (frequencies grow or stay 1) instead of a ValueError",
        ("tests/posenc/test_sinusoidal.py",),
    ),
    # ------------------------------------------------------------------ ui, unit level
    Mutation(
        "url_int_range_unchecked",
        "ui/plain/params.py",
        'if not self.minimum <= value <= self.maximum:\n            raise ParamError("outside"',
        'if False:\n            raise ParamError("outside"',
        "an out-of-range whole number in a link (seq_len=1e9) reaches the computation",
        ("tests/shared/test_i18n.py::test_every_invalid_setting_can_be_said_in_both_languages",),
    ),
    Mutation(
        "markdown_not_escaped",
        "ui/plain/safe_text.py",
        r'line = _SPECIAL.sub(r"\\\1", one_line(text, limit))',
        "line = one_line(text, limit)",
        "a link, image or heading typed into a URL renders as Markdown in a notice",
        ("tests/shared/test_user_text.py::test_markdown_text_renders_as_the_text_itself",),
    ),
    Mutation(
        "plotly_not_escaped",
        "ui/plain/safe_text.py",
        "return html.escape(one_line(text, limit), quote=False)",
        "return one_line(text, limit)",
        "HTML typed into a sentence (<b>, <a href>) is interpreted in chart labels",
        ("tests/shared/test_user_text.py::test_plotly_text_shows_html_as_typed",),
    ),
    Mutation(
        "chart_cells_doubled",
        "ui/plain/grids.py",
        "MAX_TOTAL_CELLS = 120_000",
        "MAX_TOTAL_CELLS = 240_000",
        "the largest heatmaps send ~1.6 MB of JSON, over the 1 MB chart budget",
        ("tests/shared/test_figures_common.py", "tests/features/heatmap/test_figures_heatmap.py"),
    ),
    Mutation(
        "presenter_fonts_noop",
        "ui/plain/style.py",
        "    tick, title, legend = PRESENTER_TICK, PRESENTER_TITLE, PRESENTER_LEGEND\n",
        "    return fig\n",
        "presenter mode keeps the small desk-size chart type on a projector",
        ("tests/browser/test_first_view.py::test_presenter_fonts_reach_every_kind_of_chart_text",),
    ),
    # ------------------------------------------------------------------ page level only
    Mutation(
        "downsampled_notice_hidden",
        "ui/shared/notices.py",
        "    if grid.downsampled:\n        rows, cols = grid.z.shape",
        "    if False:\n        rows, cols = grid.z.shape",
        "a heatmap of block means is shown without the notice that says so",
        # The RoPE page test once let this survive (its "4096 × 4096" and "2048" are also
        # in the download caption); it now reads the notice itself.
        ("tests/features/rope/test_rope_page.py::test_long_sequences_are_downsampled_and_say_so",),
        page=True,
    ),
    Mutation(
        "capped_notice_hidden",
        "ui/shared/notices.py",
        "    if shown < total:\n        st.info(",
        "    if False:\n        st.info(",
        "Binary's distance matrix draws 2048 of 8192 positions without saying so",
        (
            "tests/features/binary/test_binary_page.py"
            "::test_largest_settings_draw_each_tabs_charts_and_say_what_they_cap[distance]",
        ),
        page=True,
    ),
    Mutation(
        "chinese_shows_english",
        "ui/shared/i18n.py",
        "return value if value in LANG.options else LANG.default",
        "return LANG.default",
        "the language switch to Chinese leaves every text in English",
        ("tests/shared/test_i18n.py::test_a_bad_link_value_is_explained_in_the_pages_language",),
        page=True,
    ),
    Mutation(
        "notice_names_url_key",
        "ui/shared/i18n.py",
        'fields["name"] = error.spec.label_text(lang())',
        "pass",
        "a bad-link notice names the internal URL key (seq_len) instead of the setting",
        ("tests/sweeps/test_pages.py",),
        args=("-k", "bad_url_value and home and seq_len"),
        page=True,
    ),
    Mutation(
        "bad_url_value_not_rejected",
        "ui/plain/params.py",
        "if math.isnan(value) or not value.is_integer():",
        "if math.isnan(value):",
        "a fractional whole-number setting in a link (rot_pair=3.7) is taken without a notice",
        ("tests/shared/test_i18n.py::test_a_bad_link_value_is_explained_in_the_pages_language",),
        page=True,
    ),
)


def tracked_files() -> list[str]:
    """Tracked files and new ones not yet added (a module split in progress adds files
    that the tracked ones already import); ignored files (caches, artifacts) left out."""
    command = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, check=True).stdout
    return sorted({name for name in out.decode().split("\0") if name})


def copy_tree(dest: Path) -> None:
    """The files of :func:`tracked_files` as they are in the working tree (deleted ones
    left out)."""
    for name in tracked_files():
        source = ROOT / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def apply(mutation: Mutation, tree: Path) -> str:
    """Plant ``mutation`` in ``tree``; return the original text of the file."""
    path = tree / mutation.path
    text = path.read_text(encoding="utf-8")
    count = text.count(mutation.old)
    if count != 1:
        raise SystemExit(
            f"mutation {mutation.name}: snippet found {count} times in {mutation.path} "
            f"(expected exactly once; the code moved: update the table)\n{mutation.old!r}"
        )
    path.write_text(text.replace(mutation.old, mutation.new), encoding="utf-8")
    return text


def run(mutation: Mutation, tree: Path, *, baseline: bool = False) -> dict:
    original = (tree / mutation.path).read_text(encoding="utf-8")
    if not baseline:
        apply(mutation, tree)
    env = os.environ | {"PYTHONDONTWRITEBYTECODE": "1"}
    start = time.monotonic()
    try:
        proc = subprocess.run(
            mutation.command(), cwd=tree, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
        lines = proc.stdout.strip().splitlines()  # stderr: plugins' warnings
        caught = [line for line in lines if line.startswith(("FAILED ", "ERROR "))][:1]
        code, tail = proc.returncode, caught + (lines or proc.stderr.strip().splitlines())[-1:]
    except subprocess.TimeoutExpired:
        code, tail = None, [f"timeout after {TIMEOUT} s"]
    finally:
        (tree / mutation.path).write_text(original, encoding="utf-8")
    seconds = time.monotonic() - start
    # pytest: 1 tests failed, 2 interrupted (collection error: the mutation broke an import),
    # 0 all passed; 4 usage error and 5 no tests collected mean a stale target.
    outcome = {0: "SURVIVED", 1: "killed", 2: "killed"}.get(code, "ERROR")
    if baseline:  # unmutated: the targets must pass, or "killed" would prove nothing
        outcome = "passes" if code == 0 else "FAILS UNMUTATED"
    return {"mutation": mutation, "outcome": outcome, "seconds": seconds, "tail": " ".join(tail)}


def table(results: list[dict]) -> str:
    lines = [
        "| mutation | file | what it breaks | target | result | s |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        m = r["mutation"]
        target = shlex.join((*m.targets, *m.args)).replace("|", "\\|")
        page = " (page)" if m.page else ""
        lines.append(
            f"| `{m.name}` | {m.path} | {m.bug} | `{target}`{page} | {r['outcome']} "
            f"| {r['seconds']:.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="run this mutation")
    parser.add_argument("--list", action="store_true", help="list the mutations, run nothing")
    parser.add_argument(
        "--baseline", action="store_true", help="run the targets on the unmutated copy"
    )
    parser.add_argument("--jobs", type=int, default=1, help="mutations at a time (default 1)")
    args = parser.parse_args(argv)
    chosen = list(MUTATIONS)
    if args.only:
        unknown = set(args.only) - {m.name for m in MUTATIONS}
        if unknown:
            parser.error(f"unknown mutation(s): {', '.join(sorted(unknown))}")
        chosen = [m for m in MUTATIONS if m.name in args.only]
    if args.list:
        for m in chosen:
            print(f"{m.name:30} {m.path:24} {m.bug}")
        return 0

    jobs = max(1, min(args.jobs, len(chosen)))
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutations-") as tmp:
        trees = [Path(tmp) / f"tree{i}" for i in range(jobs)]
        for tree in trees:
            copy_tree(tree)
        free = list(trees)

        def one(mutation: Mutation) -> dict:
            tree = free.pop()
            try:
                result = run(mutation, tree, baseline=args.baseline)
            finally:
                free.append(tree)
            print(
                f"{mutation.name}: {result['outcome']} in {result['seconds']:.0f} s"
                f" ({result['tail']})",
                file=sys.stderr,
                flush=True,
            )
            return result

        with ThreadPoolExecutor(jobs) as pool:
            results = list(pool.map(one, chosen))
    print(table(results))
    good = "passes" if args.baseline else "killed"
    done = sum(r["outcome"] == good for r in results)
    print(f"\n{done} of {len(results)} {good} in {time.monotonic() - start:.0f} s")
    return 0 if done == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
