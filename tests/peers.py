"""Access to the peer reference values (computed by torch, transformers, ... ; see
tests/peers/make_peer_values.py). Never retype a peer's number: load it from here."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

NPZ = Path(__file__).resolve().parent / "peers" / "peer_values.npz"


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
