"""posenc: exact, fast positional encodings in numpy.

The sinusoidal table of "Attention Is All You Need", the rotation ``T(k)`` that shifts
it, binary position codes, and rotary position embedding (RoPE) with its
context-extension variants. numpy only: import it in a notebook as is.

>>> import posenc
>>> posenc.sinusoidal(3, 4).shape
(3, 4)
"""

from posenc.binary import binary
from posenc.frameworks import FRAMEWORKS, framework_table
from posenc.rope import SCALINGS, rope, rope_frequencies, rope_scores
from posenc.rotation import rotation_matrix, split_permutation
from posenc.schemes import SCHEMES, scheme_table
from posenc.similarity import dot_products, similarity_matrix
from posenc.sinusoidal import frequencies, sinusoidal, wavelengths

__all__ = [
    "FRAMEWORKS",
    "SCALINGS",
    "SCHEMES",
    "binary",
    "dot_products",
    "framework_table",
    "frequencies",
    "rope",
    "rope_frequencies",
    "rope_scores",
    "rotation_matrix",
    "scheme_table",
    "similarity_matrix",
    "sinusoidal",
    "split_permutation",
    "wavelengths",
]
__version__ = "0.1.0"
