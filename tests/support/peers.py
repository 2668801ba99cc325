"""Access to the peer reference values: never retype a peer's number, load it from here.

``peer_values.npz`` (torch, TensorFlow tutorial, transformers, rotary-embedding-torch;
see tests/peers/make_peer_values.py) is read by this module's functions;
``scheme_peer_values.npz`` (ALiBi, T5 buckets, xPos, partial RoPE, p-RoPE; see
tests/peers/make_scheme_peer_values.py) by ``support.scheme_peers``, a second
:class:`PeerFile`.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

import numpy as np

FOLDER = Path(__file__).resolve().parents[1] / "peers"


class PeerFile:
    """One ``.npz`` of peer values with its ``settings_json`` (key -> settings)."""

    def __init__(self, name: str) -> None:
        self.path = FOLDER / name

    @cached_property
    def data(self):
        return np.load(self.path, allow_pickle=False)

    def peer(self, key: str) -> np.ndarray:
        return self.data[key]

    @cached_property
    def _settings(self) -> dict[str, dict]:
        return json.loads(str(self.data["settings_json"]))

    def settings(self) -> dict[str, dict]:
        return self._settings

    def keys(self, prefix: str) -> list[str]:
        return sorted(k for k in self.data.files if k.startswith(prefix))


_FILE = PeerFile("peer_values.npz")
NPZ = _FILE.path
peer, settings, keys = _FILE.peer, _FILE.settings, _FILE.keys
