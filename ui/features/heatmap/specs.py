"""URL-bound controls of the Heatmap page and its one-click presets."""

from __future__ import annotations

from ui.plain.params import BoolParam, ChoiceParam, FloatParam, IntParam, TextParam, tab_param

LAYOUT = ChoiceParam("hm_layout", ("interleaved", "split"), "interleaved", label="heatmap.layout")
GROUP = BoolParam("hm_group", False, label="heatmap.group")
# Codes of posenc.frameworks.FRAMEWORKS, the paper first (the default).
FRAMEWORK = ChoiceParam(
    "hm_framework",
    ("paper", "torch32", "tf", "tf_old", "t2t", "fairseq"),
    "paper",
    label="heatmap.framework",
)
SENTENCE = TextParam("hm_sentence", "", max_chars=200, label="heatmap.sentence")
SEED = IntParam("hm_seed", 0, 99, 0, label="heatmap.seed")
# Embedding + PE: the embedding times sqrt(d_model) before PE is added (the paper, 3.4).
SCALE = BoolParam("hm_scale", True, label="heatmap.emb_scale")
# A position, but a float-typed number box: Streamlit's int number box crashes while
# binding a 10 000-digit URL value (int(inf)); the page rounds it to a position.
SIM_ROW = FloatParam("hm_sim_row", 0.0, 8191.0, 0.0, step=1.0, label="heatmap.sim_row")

# Tabs run lazily; the open tab is kept in the URL under its (translated) label.
TAB_NAMES = ("table", "frameworks", "embedding", "similarity")
TAB = tab_param("hm_tab", "heatmap", TAB_NAMES)

SPECS = (LAYOUT, GROUP, FRAMEWORK, SENTENCE, SEED, SCALE, SIM_ROW, TAB)

# A sentence gives at most this many rows (whitespace tokens).
MAX_TOKENS = 64
# Numeric table shown when the matrix has at most this many rows and columns.
TABLE_MAX = 32

_PLAIN = {"hm_layout": "interleaved", "hm_group": False, "hm_framework": "paper"}
# The figures of the source articles (seeds 000, 003, 004), as Session State values.
PRESETS: dict[str, dict] = {
    "overview": {"seq_len": 50, "d_model": 128, "base": 10000.0, "hm_sentence": "", **_PLAIN},
    "gentle": {"seq_len": 100, "d_model": 512, "base": 10000.0, "hm_sentence": "", **_PLAIN},
    "robot": {"hm_sentence": "I am a robot", "d_model": 4, "base": 100.0, **_PLAIN},
}
