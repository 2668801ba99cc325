"""Formulas that fit a phone: an ``aligned`` derivation becomes rows that can wrap."""

from __future__ import annotations

import re

import streamlit as st

from ui.shared.layout import phone

_ALIGNED = (r"\begin{aligned}", r"\end{aligned}")
_ENVIRONMENT = re.compile(r"\\(begin|end)\{[^}]*\}")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")  # % to the end of the line, not \%
_ROW_OPTIONS = re.compile(r"\*?(\s*\[[^\]]*\])?")  # \\* and \\[2pt] after a row break


def aligned_rows(tex: str) -> list[str] | None:
    r"""The rows of a formula that is one ``aligned`` block, without their ``&``
    alignment points, or None for any other formula (left as it is).

    Rows split at ``\\`` outside braces and nested environments (a matrix's rows and
    cells stay whole); a continuation row keeps its relation (``= x_0 \cos B ...``).
    Comments and a row break's ``*`` or ``[2pt]`` are dropped; unbalanced braces or
    environments give None.
    """
    body = _COMMENT.sub("", tex).strip()
    if not (body.startswith(_ALIGNED[0]) and body.endswith(_ALIGNED[1])):
        return None
    body = body[len(_ALIGNED[0]) : -len(_ALIGNED[1])]
    rows, row, depth, i = [], [], 0, 0
    while i < len(body):
        if body.startswith("\\\\", i) and depth == 0:
            rows.append("".join(row).strip())
            row, i = [], _ROW_OPTIONS.match(body, i + 2).end()
            continue
        environment = _ENVIRONMENT.match(body, i)
        if environment:
            depth += 1 if environment.group(1) == "begin" else -1
            row.append(environment.group(0))
            i = environment.end()
        elif body[i] == "\\":  # a control sequence: \{ \} \& do not open, close or align
            row.append(body[i : i + 2])
            i += 2
        else:
            depth += {"{": 1, "}": -1}.get(body[i], 0)
            if not (body[i] == "&" and depth == 0):
                row.append(body[i])
            i += 1
        if depth < 0:  # e.g. two aligned blocks side by side: not one block
            return None
    rows.append("".join(row).strip())
    return [r for r in rows if r] if depth == 0 else None


def latex(tex: str) -> None:
    r"""``st.latex``; on a phone, an ``aligned`` derivation becomes plain display math
    with a line break (``\\``) after each row.

    Aligned math is one table that cannot wrap, and the derivations are wider than a
    phone; plain display math wraps after a relation or operator
    (:data:`ui.shared.menu.NARROW_CSS`).
    """
    rows = aligned_rows(tex) if phone() else None
    st.latex(r" \\ ".join(rows) if rows else tex)
