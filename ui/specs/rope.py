"""URL-bound controls of the RoPE attention-score viewer (``pages/5_RoPE.py``)."""

from __future__ import annotations

import json

from ui.params import BoolParam, ChoiceParam, FloatParam, IntParam, TextParam
from ui.specs import tab_param

# Sidebar: the model and the content.
HEAD_DIM = IntParam("rope_head_dim", 4, 256, 64, step=2)
BASE = FloatParam("rope_base", 1.0, 1e9, 10000.0, exclusive_minimum=True)
LENGTH = IntParam("rope_len", 2, 4096, 256)
LAYOUT = ChoiceParam("rope_layout", ("interleaved", "split"), "interleaved")
CONTENT = ChoiceParam("rope_content", ("random", "same", "sentence"), "random")
TEXT = TextParam("rope_text", "the cat sat on the mat and the dog sat on the log", max_chars=200)
SEED = IntParam("rope_seed", 0, 9999, 0)

# Tab "scores".
SCALE = BoolParam("rope_scale", True)
VIEW = ChoiceParam("rope_view", ("scores", "attention", "attention_all"), "scores")
# Tab "pair".
PAIR = IntParam("rope_pair", 0, 127, 0)
POS_M = IntParam("rope_m", 0, 4095, 7)
POS_N = IntParam("rope_n", 0, 4095, 3)
# Tab "decay".
DECAY = ChoiceParam("rope_decay", ("bound", "same"), "bound")
# Tab "extension".
SCALING = ChoiceParam("rope_scaling", ("none", "linear", "ntk", "yarn", "llama3"), "yarn")
FACTOR = FloatParam("rope_factor", 1.0, 32.0, 4.0, step=0.5)
ORIGINAL = IntParam("rope_orig", 64, 4096, 512, step=64)
# Tab "models": a released model's settings, or a pasted config.json (ui/model_presets.py).
MODELS = ("llama2_7b", "llama31_8b", "mistral_7b", "qwen25_7b", "qwen25_7b_yarn", "neox_20b",
          "phi2", "pasted")  # fmt: skip
MODEL = ChoiceParam("rope_model", MODELS, "llama31_8b")


class ConfigParam(TextParam):
    """The pasted config.json (read by ``ui.model_presets.parse_config``)."""

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


CONFIG = ConfigParam("rope_config", "", max_chars=4000)

# Tabs run lazily; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = ("scores", "pair", "decay", "compare", "layouts", "extension", "models")
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
    TAB,
)
