"""Access to the scheme peer values (ALiBi, T5 buckets, xPos, partial RoPE, p-RoPE),
computed by transformers and rotary-embedding-torch in
tests/peers/make_scheme_peer_values.py. Never retype a peer's number: load it here."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

NPZ = Path(__file__).resolve().parent / "peers" / "scheme_peer_values.npz"


@cache
def _data():
    return np.load(NPZ, allow_pickle=False)


def peer(key: str) -> np.ndarray:
    return _data()[key]


@cache
def settings() -> dict[str, dict]:
    return json.loads(str(_data()["settings_json"]))


def keys(prefix: str) -> list[str]:
    return sorted(k for k in _data().files if k.startswith(prefix))
