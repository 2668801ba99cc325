"""URL-bound controls of each page (``SPECS`` per module)."""

from ui.params import ChoiceParam
from ui.texts import LANGUAGES, text

# The on-screen label of every setting, by URL key: (text key, fields) parts, joined.
# Notices name a setting by its label in the reader's language, never by its key.
_W = {
    f"bin_{band}_w{i}": (
        ("binary." + ("high" if band == "hi" else "low"), {}),
        ("binary.w", {"i": i}),
    )
    for band in ("hi", "lo")
    for i in range(3)
}
# The story's controls: story_<name> is labelled by the text story.<name>.
_STORY = (
    "story_order_pe", "story_naive_len", "story_bits", "story_bit", "story_clock_p",
    "story_table_d", "story_shift_k", "story_dot_p", "story_w_k", "story_w_seed",
    "story_rope_k", "story_decay_d", "story_factor",
)  # fmt: skip
LABELS: dict[str, tuple[tuple[str, dict], ...]] = {
    "seq_len": (("common.seq_len", {}),),
    "d_model": (("common.d_model", {}),),
    "base": (("common.base", {}),),
    "lang": (("common.language", {}),),
    "present": (("common.present", {}),),
    "hm_layout": (("heatmap.layout", {}),),
    "hm_group": (("heatmap.group", {}),),
    "hm_framework": (("heatmap.framework", {}),),
    "hm_sentence": (("heatmap.sentence", {}),),
    "hm_seed": (("heatmap.seed", {}),),
    "hm_scale": (("heatmap.emb_scale", {}),),
    "hm_sim_row": (("heatmap.sim_row", {}),),
    "wl_bases": (("wavelengths.bases", {}),),
    "wl_dims": (("wavelengths.dims", {}),),
    "wl_positions": (("wavelengths.positions", {}),),
    "wl_vec_mode": (("wavelengths.vec_mode", {}),),
    "wl_vec_count": (("wavelengths.vec_count", {}),),
    "wl_clock_p": (("wavelengths.clock_p", {}),),
    "wl_clock_step": (("wavelengths.clock_step", {}),),
    "wl_dials": (("wavelengths.dials", {}),),
    "wl_sin_a": (("wavelengths.sin_a", {}),),
    "wl_sin_b": (("wavelengths.sin_b", {}),),
    "wl_sin_c": (("wavelengths.sin_c", {}),),
    "wl_sin_d": (("wavelengths.sin_d", {}),),
    "bin_k": (("binary.k", {}),),
    "bin_bits": (("binary.bits", {}),),
    "bin_gap": (("binary.gap", {}),),
    **_W,
    "bin_focus": (("binary.focus", {}),),
    "bin_scheme": (("binary.scheme", {}),),
    "rot_k": (("rotation.k", {}),),
    "rot_pair": (("rotation.pair", {}),),
    "rot_p": (("rotation.p", {}),),
    "rot_layout": (("rotation.layout", {}),),
    "rot_fit": (("rotation.fit", {}),),
    "rot_fit_n": (("rotation.fit_n", {}),),
    "rot_coef": (("rotation.coef", {}),),
    "rope_head_dim": (("rope.head_dim", {}),),
    "rope_base": (("rope.base", {}),),
    "rope_len": (("rope.length", {}),),
    "rope_layout": (("rope.layout", {}),),
    "rope_content": (("rope.content", {}),),
    "rope_text": (("rope.text", {}),),
    "rope_seed": (("rope.seed", {}),),
    "rope_scale": (("rope.scale", {}),),
    "rope_view": (("rope.view", {}),),
    "rope_pair": (("rope.pair", {}),),
    "rope_m": (("rope.m", {}),),
    "rope_n": (("rope.n", {}),),
    "rope_decay": (("rope.decay", {}),),
    "rope_scaling": (("rope.scaling", {}),),
    "rope_factor": (("rope.factor", {}),),
    "rope_orig": (("rope.orig", {}),),
    "rope_model": (("rope.model", {}),),
    "rope_config": (("rope.config", {}),),
    "sc_head_dim": (("schemes.head_dim", {}),),
    "sc_train": (("schemes.train", {}),),
    "sc_len": (("schemes.length", {}),),
    "sc_pca": (("schemes.pca", {}),),
    "step": (("story.step", {}),),
    **{key: ((f"story.{key[len('story_'):]}", {}),) for key in _STORY},
    **{
        key: (("common.open_tab", {}),)
        for key in ("hm_tab", "wl_tab", "bin_tab", "rot_tab", "rope_tab", "sc_tab")
    },
}  # fmt: skip


def setting_label(lang: str, key: str) -> str:
    """The label of the setting kept in the URL under ``key`` (the key if unknown)."""
    parts = LABELS.get(key)
    if parts is None:
        return key
    return " ".join(text(lang, name, **fields) for name, fields in parts)


def tab_param(key: str, page: str, names: tuple[str, ...]) -> ChoiceParam:
    """The open tab of a page with lazy tabs, kept in the URL under its name (``names``:
    short language-independent codes such as ``fit``); the first tab is the default.

    Options: the labels ``text(lang, f"{page}.tab_{name}")`` of every language in
    turn, then the names, each group in tab order (``options.index(x) % len(names)`` is
    the tab): links from before tabs had codes, which held a label, still open.
    """
    labels = tuple(text(lang, f"{page}.tab_{name}") for lang in LANGUAGES for name in names)
    return ChoiceParam(key, (*labels, *names), labels[0])
