"""The listings the Frameworks tab shows (ui/features/heatmap/data_frameworks.py) are the
code they claim: the numpy ones run and build this app's tables; the torch ones are,
statement by statement, the code tests/peers/make_peer_values.py computed the reference
values with."""

from __future__ import annotations

import ast
import math
import re
import types
from pathlib import Path

import numpy as np
import pytest

from posenc.frameworks import framework_table
from ui.features.heatmap import data_frameworks as code

PEERS = Path(__file__).resolve().parents[2] / "peers" / "make_peer_values.py"
L, D = 50, 128
# tf.cast(x, dtype=tf.float32): the tutorials' last step; kept in float64 here.
TF = types.SimpleNamespace(cast=lambda x, dtype: np.asarray(x), float32=np.float32)


def run(listing: str, **names) -> dict:
    scope = {"np": np, "math": math, "tf": TF, **names}
    exec(compile(listing, "<listing>", "exec"), scope)
    return scope


NUMPY_LISTINGS = {
    "seed004": (code.SEED_004, "paper", lambda s: s["getPositionEncoding"](L, D)),
    "seed003": (code.SEED_003, "paper", lambda s: s["positional_encoding"]),
    "seed002": (code.SEED_002, "tf_old", lambda s: s["position_angle_vecs"]),
    "tf": (code.TF_TUTORIAL, "tf", lambda s: s["positional_encoding"](L, D)),
    "tf_old": (code.TF_OLD_TUTORIAL, "tf_old", lambda s: s["positional_encoding"](L, D)[0]),
    "t2t": (code.T2T_NUMPY, "t2t", lambda s: s["get_timing_signal_1d"](L, D)),
}


@pytest.mark.parametrize("name", sorted(NUMPY_LISTINGS))
def test_each_numpy_listing_builds_the_table_of_its_framework(name):
    listing, framework, table = NUMPY_LISTINGS[name]
    scope = run(listing, sequence_length=L, d_model=D, seq_len=L, hidden_dim=D)
    ours = framework_table(framework, L, D, 10000.0)
    np.testing.assert_allclose(table(scope), ours, rtol=0, atol=1e-12)
    assert any(listing == shown for pairs in code.LISTINGS.values() for _, shown in pairs)


def statements(source: str) -> set[str]:
    """Every simple statement, formatting and torch dtype spellings removed."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.Return | ast.If):
            text = ast.unparse(node).splitlines()[0]
            # The peers' float64 copies spell the dtype out; the listings are float32.
            text = re.sub(r", dtype=torch\.\w+|\.float\(\)", "", text)
            found.add(re.sub(r"\s+", "", text))
    return found


@pytest.mark.parametrize(
    ("listing", "skip"),
    [
        (code.TORCH_TUTORIAL, {"self.dropout=nn.Dropout(p=dropout)", "pe=pe.unsqueeze(0)"}),
        (code.FAIRSEQ, set()),
    ],
    ids=["torch32", "fairseq"],
)
def test_each_torch_listing_is_the_code_the_peer_values_came_from(listing, skip):
    ours = statements(listing) - skip
    assert len(ours) >= 5
    assert ours <= statements(PEERS.read_text(encoding="utf-8")), ours - statements(
        PEERS.read_text(encoding="utf-8")
    )


def test_every_framework_has_a_listing_with_a_source_text():
    from posenc.frameworks import FRAMEWORKS
    from ui.plain.texts import text

    assert set(code.LISTINGS) == set(FRAMEWORKS)
    for pairs in code.LISTINGS.values():
        for source, _ in pairs:
            assert text("en", f"heatmap.{source}") and text("zh", f"heatmap.{source}")
