"""posenc: exact, fast positional encodings in numpy.

The sinusoidal table of "Attention Is All You Need", the rotation ``T(k)`` that shifts
it, binary position codes, and rotary position embedding (RoPE) with its
context-extension variants. numpy only: import it in a notebook as is.

>>> import posenc
>>> posenc.sinusoidal(3, 4).shape
(3, 4)
"""

from posenc._threads import max_threads, set_max_threads
from posenc.alibi import alibi_bias, alibi_slopes
from posenc.attention import (
    additive_scores,
    causal_softmax,
    decay_bound,
    relative_scores,
    same_content_decay,
    toeplitz_residual,
)
from posenc.binary import binary
from posenc.blocks import scheme_block_means, sinusoid_block_means
from posenc.fit import fit_shift
from posenc.frameworks import FRAMEWORKS, framework_table
from posenc.learned import LEARNED_MODELS, learned_position_embeddings, learned_provenance
from posenc.rope import SCALINGS, rope, rope_frequencies, rope_scores
from posenc.rotation import block_rotation, rotation_matrix, split_permutation
from posenc.schemes import SCHEMES, scheme_table
from posenc.shift import apply_rotation, shift_residuals
from posenc.similarity import dot_products, offset_distance, offset_dot, similarity_matrix
from posenc.sinusoidal import encode_positions, frequencies, sinusoidal, wavelengths
from posenc.t5 import t5_bucket
from posenc.xpos import xpos_scores

__all__ = [
    "FRAMEWORKS",
    "LEARNED_MODELS",
    "SCALINGS",
    "SCHEMES",
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
    "learned_position_embeddings",
    "learned_provenance",
    "max_threads",
    "offset_distance",
    "offset_dot",
    "relative_scores",
    "rope",
    "rope_frequencies",
    "rope_scores",
    "rotation_matrix",
    "same_content_decay",
    "scheme_block_means",
    "scheme_table",
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
]
__version__ = "0.1.0"
