"""The scheme peer values (ALiBi, T5 buckets, xPos, partial RoPE, p-RoPE), computed by
transformers and rotary-embedding-torch in tests/peers/make_scheme_peer_values.py.
Never retype a peer's number: load it here."""

from __future__ import annotations

from .peers import PeerFile

_FILE = PeerFile("scheme_peer_values.npz")
NPZ = _FILE.path
peer, settings, keys = _FILE.peer, _FILE.settings, _FILE.keys
