"""URL-bound controls of the RoPE attention-score viewer (``pages/5_RoPE.py``)."""

from __future__ import annotations

import json

from posenc import SCALINGS
from ui.features.rope.data_models import MAX_CONFIG_CHARS, MAX_CONTEXT, PRESETS
from ui.plain.params import BoolParam, ChoiceParam, FloatParam, IntParam, TextParam, tab_param

# Sidebar: the model and the content.
HEAD_DIM = IntParam("rope_head_dim", 4, 256, 64, step=2, label="rope.head_dim")
BASE = FloatParam("rope_base", 1.0, 1e9, 10000.0, exclusive_minimum=True, label="rope.base")
LENGTH = IntParam("rope_len", 2, 4096, 256, label="rope.length")
LAYOUT = ChoiceParam("rope_layout", ("interleaved", "split"), "interleaved", label="rope.layout")
CONTENT = ChoiceParam(
    "rope_content", ("random", "same", "sentence"), "random", label="rope.content"
)
TEXT = TextParam(
    "rope_text",
    "the cat sat on the mat and the dog sat on the log",
    max_chars=200,
    label="rope.text",
)
SEED = IntParam("rope_seed", 0, 9999, 0, label="rope.seed")

# Tab "scores".
SCALE = BoolParam("rope_scale", True, label="rope.scale")
VIEW = ChoiceParam(
    "rope_view", ("scores", "attention", "attention_all"), "scores", label="rope.view"
)
# Tab "pair".
PAIR = IntParam("rope_pair", 0, 127, 0, label="rope.pair")
POS_M = IntParam("rope_m", 0, 4095, 7, label="rope.m")
POS_N = IntParam("rope_n", 0, 4095, 3, label="rope.n")
# Tab "decay".
DECAY = ChoiceParam("rope_decay", ("bound", "same"), "bound", label="rope.decay")
# Tab "extension" (and "temperature", which reads the same three).
# Context-extension methods by their URL code: posenc.SCALINGS, with "none" for None.
METHODS = tuple(scaling or "none" for scaling in SCALINGS)
SCALING = ChoiceParam("rope_scaling", METHODS, "yarn", label="rope.scaling")
FACTOR = FloatParam("rope_factor", 1.0, 32.0, 4.0, step=0.5, label="rope.factor")
ORIGINAL = IntParam("rope_orig", 64, 4096, 512, step=64, label="rope.orig")
# Tab "models": a released model's settings (data_models.PRESETS), or a pasted config.json.
MODELS = (*PRESETS, "pasted")
MODEL = ChoiceParam("rope_model", MODELS, "llama31_8b", label="rope.model")


class ConfigParam(TextParam):
    """The pasted config.json (read by ``ui.features.rope.data_models.parse_config``)."""

    def extreme(self, which: str) -> str:
        """The shortest and the largest valid text, for tests that walk every setting's
        ends: empty, and the heaviest config the tab reads (the largest head, Llama 3.1
        scaling to the largest context) padded with spaces to the cap."""
        if which == "min":
            return ""
        scaling = {
            "rope_type": "llama3",
            "factor": 64.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 1_000_000,
        }
        heavy = {"head_dim": 1024, "rope_theta": 1e12, "max_position_embeddings": 100_000_000,
                 "rope_scaling": scaling}  # fmt: skip
        return json.dumps(heavy).ljust(self.max_chars)


CONFIG = ConfigParam("rope_config", "", max_chars=MAX_CONFIG_CHARS, label="rope.config")
# The current length L, for a model whose speeds depend on it (dynamic NTK, LongRoPE).
MODEL_LEN = IntParam("rope_models_len", 1, MAX_CONTEXT, 4096, label="rope.models_len")
# Tab "base": the base a context needs (posenc.rope_base_lower_bound). Head dims with a
# stored bound only (posenc.rope_base.TABLE_PLAN), so every setting is a lookup; the
# head dim's codes are not bare numbers (an option code never shows on screen, and
# numbers such as 128 do).
BOUND_CONTEXT = IntParam("rope_bound_len", 2048, 1 << 20, 4096, step=2048, label="rope.bound_len")
BOUND_HEAD_DIM = ChoiceParam(
    "rope_bound_dim", ("d64", "d96", "d128", "d256"), "d128", label="rope.bound_dim"
)
BOUND_BASE = FloatParam("rope_bound_base", 1.0, 1e10, 10000.0, label="rope.bound_base")

# Tabs run lazily; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = (
    "scores", "pair", "decay", "compare", "layouts", "extension", "temperature", "models", "base"
)  # fmt: skip
TAB = tab_param("rope_tab", "rope", TAB_NAMES)

# Bases drawn together in the decay tab (LLaMA 2, LLaMA 3, long-context models).
DECAY_BASES = (10000.0, 500000.0, 1000000.0)

SPECS = (
    HEAD_DIM,
    BASE,
    LENGTH,
    LAYOUT,
    CONTENT,
    TEXT,
    SEED,
    SCALE,
    VIEW,
    PAIR,
    POS_M,
    POS_N,
    DECAY,
    SCALING,
    FACTOR,
    ORIGINAL,
    MODEL,
    CONFIG,
    MODEL_LEN,
    BOUND_CONTEXT,
    BOUND_HEAD_DIM,
    BOUND_BASE,
    TAB,
)
