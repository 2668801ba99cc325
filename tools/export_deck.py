"""Write the "Start here" story as one offline HTML file per language (issue #32).

    python tools/export_deck.py --out DIR [--app-url https://host/app]

writes ``DIR/story-en.html`` and ``DIR/story-zh.html``: every step of the story in
order, each with its title, two lines, chart, formula and notes, its controls as sliders
over precomputed stops, Plotly.js and the formulas (MathML) inside the file. Open a file
from disk, with the network off: arrow keys or Back / Next move, ``#step=N`` opens step
N. ``--app-url``: the go-deeper links open that hosted app (left out without it).

The content is the page's own: ``ui.features.story.view`` draws each step through one
function, on Streamlit or on the deck's recorder. The two languages are built in two
processes.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "zh")
MAX_BYTES = 8 * 1024 * 1024  # issue #32: at most 8 MB a file


def file_name(lang: str) -> str:
    return f"story-{lang}.html"


def build(lang: str, app_url: str | None = None) -> str:
    """The deck of ``lang`` as HTML text."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import logging

    logging.getLogger("streamlit").setLevel(logging.ERROR)  # "no runtime": bare mode
    from ui.features.story.view import deck_file

    return deck_file(lang, app_url)


def _write(job: tuple[str, str | None, str]) -> tuple[str, int, float]:
    lang, app_url, out = job
    start = time.perf_counter()
    data = build(lang, app_url).encode("utf-8")
    if len(data) > MAX_BYTES:
        raise SystemExit(f"{file_name(lang)} is {len(data):,} bytes, over {MAX_BYTES:,}")
    path = Path(out) / file_name(lang)
    path.write_bytes(data)
    return str(path), len(data), time.perf_counter() - start


def export(out: Path, app_url: str | None = None, workers: int = 2) -> list[tuple[str, int, float]]:
    """Write both files into ``out``; ``(path, bytes, seconds)`` of each."""
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(lang, app_url, str(out)) for lang in LANGUAGES]
    if workers <= 1:
        return [_write(job) for job in jobs]
    sys.path.insert(0, str(ROOT / "tools"))
    import export_deck  # by module name, so the workers can import it

    with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
        return list(pool.map(export_deck._write, jobs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the two files")
    parser.add_argument("--app-url", help="hosted app for the go-deeper links")
    parser.add_argument("--workers", type=int, default=2, help="processes (1: one by one)")
    args = parser.parse_args()
    start = time.perf_counter()
    for path, size, seconds in export(args.out, args.app_url, args.workers):
        print(f"{path}: {size / 2**20:.2f} MB in {seconds:.1f} s")
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
