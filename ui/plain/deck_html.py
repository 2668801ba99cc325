"""The recorded story (``ui.plain.deck``) as one HTML file that needs nothing else.

Plotly.js comes from the installed plotly package, formulas are MathML (``latex2mathml``,
drawn by the browser itself), and every state of every step is in the file as JSON: a
control swaps the chart (``Plotly.react``), the two lines and the formula. No request
leaves the file: it works from a USB stick with the network off.

Every text is escaped (``html.escape``); the JSON sits in a ``<script
type="application/json">`` with each ``<`` written as ``\\u003c``, so no string can end it.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Callable, Sequence

from latex2mathml.converter import convert
from plotly.io.json import to_json_plotly
from plotly.offline import get_plotlyjs

from ui.plain.deck import Step
from ui.plain.texts import text

# What latex2mathml 3.81 does not take as KaTeX does: a size before a named delimiter
# (\big\langle, \big\lfloor: written out as LaTeX), a negative thin space.
_SIZED_NAME = re.compile(r"\\[bB]ig(?=\\[a-z])")
_MATH = re.compile(r"\$([^$]+)\$")


@functools.lru_cache(maxsize=4096)
def mathml(tex: str, *, block: bool) -> str:
    """``tex`` as MathML, drawn by the browser with no script or font to fetch."""
    tex = _SIZED_NAME.sub("", tex).replace(r"\!", "")
    return convert(tex, display="block" if block else "inline")


def _top_level_parts(tex: str) -> list[str]:
    """``tex`` cut after each ``\\qquad`` outside braces: the terms of a long formula."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(tex):
        if tex[i] in "{}":
            depth += 1 if tex[i] == "{" else -1
        elif depth == 0 and tex.startswith(r"\qquad", i):
            parts.append(tex[start:i])
            start = i = i + len(r"\qquad")
            continue
        i += 1
    return [p.strip() for p in [*parts, tex[start:]] if p.strip()]


def formula(tex: str) -> str:
    """A display formula as one MathML block per top-level term, so that a narrow screen
    wraps it between terms (as the page's KaTeX does) instead of cutting it."""
    return "".join(mathml(part, block=True) for part in _top_level_parts(tex))


def markdown(source: str) -> str:
    """The story's Markdown (paragraphs, inline ``$math$``) as HTML, text escaped."""
    paragraphs = []
    for para in source.split("\n\n"):
        parts = _MATH.split(para)  # text, math, text, ...
        inner = "".join(
            mathml(part, block=False) if i % 2 else html.escape(part)
            for i, part in enumerate(parts)
        )
        paragraphs.append(f"<p>{inner}</p>")
    return "".join(paragraphs)


class _Pool:
    """JSON values stored once and referred to by index (most states share a layout, a
    formula or frames)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, json_text: str) -> int:
        if json_text not in self._index:
            self._index[json_text] = len(self.texts)
            self.texts.append(json_text)
        return self._index[json_text]

    def string(self, value: str) -> int:
        return self.add(json.dumps(value, ensure_ascii=False))


def payload(steps: Sequence[Step], link: Callable | None) -> str:
    """The deck's data as JSON text, safe inside a ``<script>`` element."""
    pool, out = _Pool(), []
    for step in steps:
        states = []
        for state in step.states:
            figure = state.figure
            layout = dict(figure["layout"])
            template = layout.pop("template", None)  # the house template: the same in all
            entry = {
                "lead": pool.string(markdown(state.lead)),
                "formula": pool.string(formula(state.formula)),
                "data": pool.add(to_json_plotly(figure["data"])),
                "layout": pool.add(to_json_plotly(layout)),
                "template": pool.add(to_json_plotly(template)),
                "frames": pool.add(to_json_plotly(figure["frames"])) if figure.get("frames")
                else -1,
            }  # fmt: skip
            if link is not None:
                entry["link"] = pool.string(link(state.deeper)[1])
            states.append(entry)
        controls = [
            {"kind": c.kind, "stops": [_shown(v) for v in c.stops], "default": c.default_index}
            for c in step.controls
        ]
        out.append({"name": step.name, "controls": controls, "states": states})
    body = '{"pool":[' + ",".join(pool.texts) + '],"steps":' + json.dumps(out) + "}"
    return body.replace("<", "\\u003c")


def _shown(value) -> str:
    """A stop as the control shows it: ``4.5``, ``8``, on / off for a toggle."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _controls(step: Step, lang: str) -> str:
    rows, colon = [], "：" if lang == "zh" else ": "
    for j, c in enumerate(step.controls):
        ident = f"c-{step.name}-{j}"
        label, tip = html.escape(c.label), html.escape(c.help, quote=True)
        if c.kind == "toggle":
            checked = " checked" if c.spec.default else ""
            rows.append(
                f'<label class="toggle" title="{tip}"><input type="checkbox" id="{ident}" '
                f'data-control="{j}"{checked}> {label}</label>'
            )
        else:
            value = html.escape(_shown(c.spec.default))
            rows.append(
                f'<div class="slider"><label for="{ident}" title="{tip}">{label}{colon}'
                f'<output id="{ident}-out">{value}</output></label>'
                f'<input type="range" id="{ident}" data-control="{j}" min="0" '
                f'max="{len(c.stops) - 1}" step="1" value="{c.default_index}" '
                f'aria-valuetext="{value}"></div>'
            )
        if c.sampled:
            lo, hi = _shown(c.stops[0]), _shown(c.stops[-1])
            note = text(lang, "story.deck_sampled", name=c.label, count=len(c.stops), lo=lo, hi=hi)
            rows.append(f'<p class="sampled">{html.escape(note)}</p>')
    return "".join(rows)


def _slide(n: int, step: Step, lang: str, link: Callable | None) -> str:
    say = lambda key, **v: html.escape(text(lang, key, **v))  # noqa: E731
    state = step.default
    deeper = ""
    if link is not None:
        label, href = link(state.deeper)
        deeper = (
            f'<p class="deeper"><a class="deeper-link" href="{html.escape(href, quote=True)}">'
            f"{html.escape(label)}</a></p>"
        )
    chart_label = say("story.deck_chart", n=n, title=step.title)
    alt = say(f"story.alt_{step.name}")  # the page's text alternative of the chart
    return (
        f'<section class="slide" id="step-{n}" data-step="{n}" hidden>'
        f"<h2>{html.escape(step.title)}</h2>"
        f'<div class="nav"><button type="button" class="back" title="{say("story.back_help")}">'
        f'{say("story.back")}</button><button type="button" class="next primary" '
        f'title="{say("story.next_help")}">{say("story.next")}</button>'
        f'<span class="where">{say("story.step_of", n=n, total="__TOTAL__")}</span></div>'
        f'<div class="lead">{markdown(state.lead)}</div>'
        f'<div class="controls">{_controls(step, lang)}</div>'
        f'<figure class="chart-box" aria-label="{chart_label}">'
        f'<div class="chart"></div><figcaption class="alt">{alt}</figcaption></figure>'
        f'<div class="formula" data-label="{say("a11y.formula_scrolls")}">'
        f"{formula(state.formula)}</div>{deeper}"
        f'<details class="notes"><summary>{say("common.notes")}</summary>'
        f"{markdown(step.notes)}</details></section>"
    )


def deck_html(steps: Sequence[Step], lang: str, *, link: Callable | None = None) -> str:
    """The whole deck as one HTML document; ``link(deeper) -> (label, href)`` writes the
    go-deeper links (None: none)."""
    slides = "".join(_slide(n, step, lang, link) for n, step in enumerate(steps, 1))
    slides = slides.replace("__TOTAL__", str(len(steps)))
    title = html.escape(text(lang, "story.deck_title"))
    return (
        f'<!DOCTYPE html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{CSS}</style></head><body>"
        f'<main><p class="deck-title">{title}</p>{slides}'
        f'<p class="keys">{html.escape(text(lang, "story.deck_keys"))}</p></main>'
        f'<script type="application/json" id="deck-data">{payload(steps, link)}</script>'
        f"<script>{get_plotlyjs()}</script><script>{JS}</script></body></html>"
    )


CSS = """
html{font-size:22px;-webkit-text-size-adjust:100%}
body{margin:0;color:#1f2430;background:#fff;line-height:1.45;
font-family:system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC","PingFang SC",
"Microsoft YaHei",sans-serif;overflow-wrap:anywhere}
main{max-width:1180px;margin:0 auto;padding:.4rem 1rem 1rem}
.deck-title{margin:0;color:#5b6472;font-size:.8rem}
h2{font-size:1.55rem;line-height:1.2;margin:.2rem 0 .4rem}
.nav{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin-bottom:.3rem}
button{font:inherit;font-size:.95rem;padding:.25rem .9rem;border:1px solid #c3c8d1;
border-radius:.4rem;background:#fff;color:inherit;cursor:pointer}
button.primary{background:#2166ac;border-color:#2166ac;color:#fff}
button:disabled{opacity:.4;cursor:default}
button:focus-visible,input:focus-visible,a:focus-visible,summary:focus-visible{
outline:3px solid #f4a261;outline-offset:2px}
.lead p{margin:.2rem 0}
.controls{display:flex;flex-wrap:wrap;gap:.2rem 2rem;align-items:center;margin:.3rem 0}
.slider{display:flex;flex-direction:column;min-width:min(100%,16rem);flex:1 1 16rem;
max-width:34rem}
.slider input{width:100%;height:1.6rem;accent-color:#2166ac}
.toggle input{width:1.2rem;height:1.2rem;accent-color:#2166ac}
output{font-weight:600}
.sampled{flex-basis:100%;margin:0;font-size:.8rem;color:#5b6472}
figure{margin:.3rem 0}
.chart{width:100%}
.alt{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;
clip:rect(0 0 0 0);white-space:nowrap;border:0}
.formula{display:flex;flex-wrap:wrap;justify-content:center;align-items:center;
column-gap:2.2em;overflow-x:auto;overflow-y:hidden;max-width:100%;font-size:1.15rem;padding:.2rem 0}
.formula math{margin:.15rem 0}
.deeper{margin:.3rem 0}
a{color:#2166ac}
details{margin:.4rem 0;font-size:.9rem}
summary{cursor:pointer;color:#5b6472}
.keys{color:#5b6472;font-size:.75rem;margin-top:1rem}
@media (max-width:600px){html{font-size:18px}main{padding:.3rem .6rem}h2{font-size:1.35rem}
.formula{font-size:1rem;column-gap:1.2em}}
"""

JS = r"""
(function () {
  const DATA = JSON.parse(document.getElementById('deck-data').textContent);
  const pool = DATA.pool, steps = DATA.steps;
  const slides = Array.from(document.querySelectorAll('section.slide'));
  const picked = steps.map(s => s.controls.map(c => c.default));
  const CONFIG = {displaylogo: false, responsive: true};
  let current = -1;
  const copy = v => JSON.parse(JSON.stringify(v));
  // Projector type (18 px and more) on a phone: the dial labels ran into each other.
  const NARROW = 600;
  function smaller(node, inFont) {
    if (Array.isArray(node)) { node.forEach(v => smaller(v, false)); return; }
    if (!node || typeof node !== 'object' || node.bdata) return;
    for (const [key, value] of Object.entries(node)) {
      if (inFont && key === 'size' && typeof value === 'number') {
        node[key] = Math.max(10, Math.round(value * 0.62));
      } else {
        smaller(value, /font$/i.test(key));
      }
    }
  }

  function state(i) {
    let flat = 0;
    steps[i].controls.forEach((c, j) => { flat = flat * c.stops.length + picked[i][j]; });
    return steps[i].states[flat];
  }

  // A formula wider than the screen scrolls sideways: then it is a named tab stop, so a
  // keyboard can scroll it (axe: scrollable-region-focusable); one that fits is not.
  function focusable(box) {
    if (box.scrollWidth > box.clientWidth) {  // (y: hidden, a subpixel taller is no scroll)
      box.tabIndex = 0;
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', box.dataset.label);
    } else {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }

  function draw(i) {
    const s = state(i), slide = slides[i];
    slide.querySelector('.lead').innerHTML = pool[s.lead];
    const box = slide.querySelector('.formula');
    box.innerHTML = pool[s.formula];
    focusable(box);
    // MathML and its fonts may widen it after this: check again whenever its parts resize.
    const watch = new ResizeObserver(() => focusable(box));
    [box, ...box.children].forEach(el => watch.observe(el));
    const a = slide.querySelector('.deeper-link');
    if (a && s.link !== undefined) a.href = pool[s.link];
    const layout = copy(pool[s.layout]);
    if (pool[s.template]) layout.template = copy(pool[s.template]);
    delete layout.width;
    layout.autosize = true;
    const fig = {data: copy(pool[s.data]), layout: layout};
    if (s.frames >= 0) fig.frames = copy(pool[s.frames]);
    const chart = slide.querySelector('.chart');
    if (chart.clientWidth < NARROW) smaller(fig);
    else fit(chart, layout);
    // The drawing is read as its text alternative (the figcaption): its SVG, a soup of
    // tick labels to a screen reader, is hidden from it (it holds nothing focusable).
    Plotly.react(chart, fig, CONFIG).then(() => chart.querySelectorAll('svg.main-svg')
      .forEach(svg => svg.setAttribute('aria-hidden', 'true')));
  }

  // On a projector the whole step fits the screen: a chart taller than the room left
  // under the text gets that room (at least MIN_HEIGHT px), so no axis falls below the fold.
  const MIN_HEIGHT = 300;
  function fit(chart, layout) {
    const room = Math.floor(window.innerHeight - chart.getBoundingClientRect().top - 8);
    const own = layout.height || 450;
    if (own > room) layout.height = Math.max(MIN_HEIGHT, room);
  }

  function show(i) {
    i = Math.max(0, Math.min(slides.length - 1, i));
    if (i === current) return;
    if (current >= 0) {
      const old = slides[current];
      const chart = old.querySelector('.chart');
      Plotly.purge(chart);
      chart.className = 'chart';  // one .js-plotly-plot in the page: the step on screen
      chart.textContent = '';
      old.hidden = true;
    }
    current = i;
    const slide = slides[i];
    slide.hidden = false;
    slide.querySelector('.back').disabled = i === 0;
    slide.querySelector('.next').disabled = i === slides.length - 1;
    draw(i);
    const hash = '#step=' + (i + 1);
    if (location.hash !== hash) history.replaceState(null, '', hash);
    document.title = slide.querySelector('h2').textContent;
  }

  slides.forEach((slide, i) => {
    slide.querySelector('.back').addEventListener('click', () => show(i - 1));
    slide.querySelector('.next').addEventListener('click', () => show(i + 1));
    slide.querySelectorAll('[data-control]').forEach(input => {
      const j = Number(input.dataset.control), c = steps[i].controls[j];
      input.addEventListener('input', () => {
        picked[i][j] = input.type === 'checkbox' ? (input.checked ? 1 : 0) : Number(input.value);
        if (input.type === 'range') {
          const shown = c.stops[picked[i][j]];
          document.getElementById(input.id + '-out').textContent = shown;
          input.setAttribute('aria-valuetext', shown);
        }
        draw(i);
      });
    });
  });

  function fromHash() {
    const m = /step=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) - 1 : 0;
  }

  document.addEventListener('keydown', e => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const t = e.target;
    if (t && t.closest && t.closest('input, select, textarea, [contenteditable]')) return;
    if (e.key === 'ArrowRight' || e.key === 'PageDown') { show(current + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft' || e.key === 'PageUp') { show(current - 1); e.preventDefault(); }
  });
  window.addEventListener('hashchange', () => show(fromHash()));
  window.addEventListener('resize', () => { if (current >= 0) draw(current); });
  show(fromHash());
})();
"""
