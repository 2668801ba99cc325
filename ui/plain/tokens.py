"""Tokens of a typed sentence and their seeded vectors, shared by the Heatmap and RoPE pages
and the story (no Streamlit, no posenc)."""

from __future__ import annotations

import re
import zlib

import numpy as np

_CJK = "\u3400-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")


def tokenize(text: str, *, lower: bool = True) -> tuple[str, ...]:
    """Words, single CJK characters and punctuation marks, lower-cased unless ``lower`` is
    False (the Heatmap page labels its rows with the tokens as typed).

    >>> tokenize("I am a robot.", lower=False)
    ('I', 'am', 'a', 'robot', '.')
    >>> len(tokenize("我是一个机器人"))
    7
    """
    return tuple(_TOKEN.findall(text.lower() if lower else text))


def token_vector(token: str, dim: int, seed: int) -> np.ndarray:
    """A seeded random embedding: the same token and seed give the same vector."""
    key = zlib.crc32(token.encode("utf-8", "surrogatepass"))
    return np.random.default_rng([seed, key]).standard_normal(dim)
