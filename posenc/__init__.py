"""posenc: exact, fast positional encodings in numpy.

The sinusoidal table of "Attention Is All You Need", the rotation ``T(k)`` that shifts
it, binary position codes, and rotary position embedding (RoPE) with its
context-extension variants (any Hugging Face ``config.json``), multi-axis RoPE for
images, the base a context needs, ALiBi, T5 buckets, xPos and learned tables. numpy
only: import it in a notebook as is.

>>> import posenc
>>> posenc.sinusoidal(3, 4).shape
(3, 4)

Glossary (one for the whole package; every docstring uses these symbols):

================  =====================================================================
``p``, ``q``      positions (rows of a position table); ``PE[p]`` is row ``p``
``m``, ``n``      positions of a query and of a key (RoPE, xPos, ALiBi, attention)
``k``             an offset: ``T(k)`` moves row ``p`` to row ``p + k``
``r``             a relative distance between a query and a key (``m - n`` unless
                  a docstring says otherwise, as T5's ``n - m``)
``d``             the width: ``d_model`` of a position table, ``head_dim`` of RoPE;
                  even, so the columns form ``d / 2`` pairs
``i``             pair index of the sinusoid, ``0 <= i < d / 2``: columns ``2i, 2i + 1``
                  (``layout="interleaved"``) or ``i, d/2 + i`` (``layout="split"``)
``j``             pair index of RoPE (``theta_j``, as in RoFormer); where no pairs are
                  meant, a column index (``PE[p, j]``)
``b``             the geometric base, ``base=`` (10000 in the paper, 500000 in Llama 3);
                  the sources write it ``n`` or 10000
``omega_i``       angular frequency of pair i, ``b ** (-2 i / d)``: ``frequencies``
``lambda_i``      wavelength of pair i in positions, ``2 pi / omega_i``: ``wavelengths``
``T(k)``          block-diagonal rotation with ``PE[p] @ T(k) == PE[p + k]`` (row
                  vectors), block ``Phi_i(k)`` turning pair i by ``omega_i k``
``theta_j``       RoPE's rotation speed of pair j (``inv_freq``), ``b ** (-2 j / d)``
                  before any scaling; pair j at position m turns by ``m theta_j``
``L``             the context length: positions ``0 .. L - 1`` (``length=``); ``L_0``
                  the training context a scaling extends (``original_context=``)
================  =====================================================================

Naming pattern of the public API: a function is named for what it returns (a noun),
with a suffix that says its shape; verbs only for the few that act on the caller's
data or settings.

=====================  ===============================================================
``<scheme>``           the encoding itself, by its name: ``sinusoidal``, ``binary``,
                       ``rope`` (a position table, or vectors with positions applied)
``*_table``            one row per position, ``(L, d)``: ``scheme_table``,
                       ``framework_table``
``*_matrix``           a dense matrix: ``rotation_matrix`` (``d x d``),
                       ``similarity_matrix`` (``L x L``); ``block_rotation`` builds the
                       block-diagonal matrix from any angles
``*_scores``           query-by-key attention scores: ``rope_scores``, ``xpos_scores``,
                       ``relative_scores``, ``additive_scores``; ``alibi_bias`` is the
                       added bias
plural nouns           one value per pair, offset or head: ``frequencies``,
                       ``wavelengths``, ``rope_frequencies``, ``alibi_slopes``,
                       ``dot_products`` (``offset_dot`` is the same function),
                       ``offset_distance``, ``shift_residuals``, ``pair_counts``,
                       ``layout_differences``, ``rope_base_sums`` (per offset),
                       ``rope_base_bounds`` (per context where the bound steps),
                       ``prefix_entropies`` (attention entropy per prefix length)
``*_block_means``      block means of a table for a heatmap; ``score_block_means``
                       those of a score matrix never held whole
``*_ids``              integer positions per token: ``mrope_position_ids`` (three rows,
                       time, height, width)
``*_cos_sin``          the cos and sin tables of RoPE's angles, ``(L, d)`` each, in
                       the rotate-half layout: ``mrope_cos_sin``
``*_from_config``      a model's RoPE read from its Hugging Face ``config.json``:
                       ``rope_from_config`` (inv_freq and attention factor);
                       ``yarn_mscale`` is YaRN's ``0.1 k ln s + 1`` those configs name
``*_bound``            one number that bounds another: ``decay_bound``,
                       ``rope_base_lower_bound`` (the smallest base a context
                       needs); ``rope_base_failure`` is the first offset where a
                       base fails
verbs                  ``apply_rotation`` (``rows @ T(k)`` without the matrix),
                       ``encode_positions`` (rows for any positions), ``fit_shift``
                       (least squares), ``set_max_threads``
UPPER_CASE             the accepted names of an argument: ``SCHEMES``, ``FRAMEWORKS``,
                       ``SCALINGS`` (``rope_frequencies`` also takes p-RoPE's
                       ``"proportional"``), ``LEARNED_MODELS``, ``ROPE_TYPES``
                       (transformers' rope types), ``SEGMENT_KINDS``
=====================  ===============================================================

Arguments keep one name each: ``length`` (L), ``d_model`` / ``head_dim`` (d),
``base`` (b), ``layout`` (``"interleaved"`` or ``"split"``), ``k`` (an offset),
``positions``, ``offsets``. Bad input raises ``ValueError`` naming the parameter and
its accepted range. Modules hold one topic each; ``_validate``, ``_layout`` and
``_threads`` are the only helpers shared between them (``_threads``: one thread pool
per process for every blocked computation, bounded by :func:`set_max_threads`).
"""

from posenc._threads import max_threads, set_max_threads
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.attention import (
    additive_scores,
    causal_softmax,
    decay_bound,
    prefix_entropies,
    relative_scores,
    same_content_decay,
    toeplitz_residual,
)
from posenc.binary import binary
from posenc.blocks import scheme_block_means, sinusoid_block_means
from posenc.fit import fit_shift
from posenc.frameworks import FRAMEWORKS, framework_table
from posenc.learned import LEARNED_MODELS, learned_position_embeddings, learned_provenance
from posenc.mrope import SEGMENT_KINDS, mrope_cos_sin, mrope_position_ids
from posenc.rope import SCALINGS, rope, rope_frequencies, rope_scores
from posenc.rope_base import (
    rope_base_bounds,
    rope_base_failure,
    rope_base_lower_bound,
    rope_base_sums,
)
from posenc.rope_config import ROPE_TYPES, rope_from_config, yarn_mscale
from posenc.rope_pairs import pair_counts, pair_rotation
from posenc.rotation import block_rotation, rotation_matrix, split_permutation
from posenc.schemes import SCHEMES, scheme_table
from posenc.score_views import layout_differences, score_block_means
from posenc.shift import apply_rotation, shift_residuals
from posenc.similarity import dot_products, offset_distance, offset_dot, similarity_matrix
from posenc.sinusoidal import encode_positions, frequencies, sinusoidal, wavelengths
from posenc.t5 import t5_bucket
from posenc.xpos import xpos_scores

__all__ = [
    "FRAMEWORKS",
    "LEARNED_MODELS",
    "ROPE_TYPES",
    "SCALINGS",
    "SCHEMES",
    "SEGMENT_KINDS",
    "additive_scores",
    "alibi_bias",
    "alibi_slopes",
    "apply_rotation",
    "binary",
    "block_rotation",
    "causal_softmax",
    "decay_bound",
    "dot_products",
    "encode_positions",
    "fit_shift",
    "framework_table",
    "frequencies",
    "layout_differences",
    "learned_position_embeddings",
    "learned_provenance",
    "max_threads",
    "mrope_cos_sin",
    "mrope_position_ids",
    "offset_distance",
    "offset_dot",
    "pair_counts",
    "pair_rotation",
    "prefix_entropies",
    "relative_scores",
    "rope",
    "rope_base_bounds",
    "rope_base_failure",
    "rope_base_lower_bound",
    "rope_base_sums",
    "rope_frequencies",
    "rope_from_config",
    "rope_scores",
    "rotation_matrix",
    "same_content_decay",
    "scheme_block_means",
    "scheme_table",
    "score_block_means",
    "set_max_threads",
    "shift_residuals",
    "similarity_matrix",
    "sinusoid_block_means",
    "sinusoidal",
    "split_permutation",
    "t5_bucket",
    "toeplitz_residual",
    "wavelengths",
    "xpos_scores",
    "yarn_mscale",
]
__version__ = "0.1.0"
