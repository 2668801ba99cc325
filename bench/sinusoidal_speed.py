"""Speed and accuracy of ``posenc.sinusoidal`` against its peers (issue #2).

``python bench/sinusoidal_speed.py`` (about a minute) or ``--quick`` (a small smoke run).

(a) float32: ``posenc.sinusoidal(..., dtype=np.float32)`` vs the seeds' PyTorch
    ``PositionalEncoding`` code on CPU; target time ratio <= 0.4, max abs error <= 1e-6
    for positions up to 100 000.
(b) float64 (default) vs the straightforward vectorised numpy code (outer product,
    ``np.sin``/``np.cos`` into strided slices); target time ratio <= 0.3, max abs error
    <= 1e-11 at the benchmark length (positions 0 .. length-1).

Times are medians of repeated runs after one warm-up, the contenders taking turns in
each round so that drift of the machine hits all of them alike. Errors are measured
against a reference evaluated in extended precision (``np.longdouble``: 64-bit
mantissa on x86-64) from the exact formula ``sin(p * base ** (-2i / d))``: the
frequencies, the angles and sin/cos are all formed in long double, so the reference
itself errs by about ``p * 1e-19`` (< 1e-13 at p = 100 000).

Exit status 1 if a target is missed. torch is optional: without it the float32
comparison is skipped (``pip install torch==2.13.0``, CPU wheel) and the rest runs.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import posenc

BASE = 10000.0
FAR = 100_000  # the last position checked for accuracy
RATIO_F32, ERR_F32 = 0.4, 1e-6
RATIO_F64, ERR_F64 = 0.3, 1e-11


def torch_positional_encoding(max_len: int, d_model: int, *, first: int = 0):
    """The seeds' PyTorch ``PositionalEncoding`` table, line for line.

    ``first`` shifts the positions (``torch.arange(first, first + max_len)``) so that
    rows near 100 000 can be checked without building a 100 001-row table; every
    entry is an elementwise function of its own position, so the rows are the same
    numbers the full table would hold.
    """
    import torch

    pe = torch.zeros(max_len, d_model)
    position = torch.arange(first, first + max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def numpy_straightforward(length: int, d_model: int, base: float = BASE) -> np.ndarray:
    """The usual vectorised numpy code: outer product, sin/cos into strided slices."""
    position = np.arange(length, dtype=np.float64)[:, None]
    omega = base ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)
    angle = position * omega
    pe = np.empty((length, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def reference(length: int, d_model: int, offset: int, base: float = BASE) -> np.ndarray:
    """Interleaved table for positions offset .. offset+length-1, in long double."""
    ld = np.longdouble
    i2 = np.arange(0, d_model, 2).astype(ld)
    omega = ld(base) ** (-i2 / ld(d_model))
    angle = np.multiply.outer(np.arange(offset, offset + length).astype(ld), omega)
    out = np.empty((length, d_model), dtype=np.float64)
    out[:, 0::2] = np.sin(angle)
    out[:, 1::2] = np.cos(angle)
    return out


def one_thread(torch, fn: Callable[[], object]):
    """Run ``fn`` with torch limited to one thread, as posenc and numpy run here."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return fn()
    finally:
        torch.set_num_threads(threads)


def max_error(table, ref: np.ndarray) -> float:
    return float(np.max(np.abs(np.asarray(table, dtype=np.float64) - ref)))


def median_times(contenders: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """One warm-up each, then ``repeats`` rounds in turn; the median per contender."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for fn in contenders.values():
        fn()
    for _ in range(repeats):
        for name, fn in contenders.items():
            start = time.perf_counter()
            result = fn()
            times[name].append(time.perf_counter() - start)
            del result
    return {name: statistics.median(ts) for name, ts in times.items()}


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run (seconds)")
    parser.add_argument("--length", type=int, default=None)
    parser.add_argument("--d-model", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args(argv)
    length = args.length or (512 if args.quick else 8192)
    d_model = args.d_model or (256 if args.quick else 4096)
    repeats = args.repeats or (3 if args.quick else 9)

    try:
        import torch
    except ImportError:
        torch = None

    print(f"# sinusoidal speed: length={length}, d_model={d_model}, median of {repeats}")
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, "
        f"torch {torch.__version__ if torch else 'not installed'}"
        + (f" ({torch.get_num_threads()} threads)" if torch else "")
        + f", {os.cpu_count()} cores"
    )
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if os.environ.get(var):
            print(f"note: {var}={os.environ[var]} is set (no BLAS call is timed here)")
    if torch is None:
        print("torch is not importable: skipping the PyTorch peer (pip install torch==2.13.0)")

    contenders = {
        "posenc float32": lambda: posenc.sinusoidal(length, d_model, BASE, dtype=np.float32),
        "posenc float64": lambda: posenc.sinusoidal(length, d_model, BASE),
        "numpy straightforward float64": lambda: numpy_straightforward(length, d_model),
    }
    if torch is not None:
        contenders["torch PositionalEncoding float32"] = lambda: torch_positional_encoding(
            length, d_model
        )
        contenders["torch, 1 thread (info)"] = lambda: one_thread(
            torch, lambda: torch_positional_encoding(length, d_model)
        )
    t = median_times(contenders, repeats)

    # Accuracy: rows 0 .. length-1 and the rows ending at position FAR.
    far_offset = FAR - length + 1
    ref_near = reference(length, d_model, 0)
    ref_far = reference(length, d_model, far_offset)
    err = {
        ("posenc float32", "near"): max_error(contenders["posenc float32"](), ref_near),
        ("posenc float32", "far"): max_error(
            posenc.sinusoidal(length, d_model, BASE, offset=far_offset, dtype=np.float32),
            ref_far,
        ),
        ("posenc float64", "near"): max_error(contenders["posenc float64"](), ref_near),
        ("posenc float64", "far"): max_error(
            posenc.sinusoidal(length, d_model, BASE, offset=far_offset), ref_far
        ),
        ("numpy straightforward float64", "near"): max_error(
            contenders["numpy straightforward float64"](), ref_near
        ),
    }
    position = np.arange(far_offset, FAR + 1, dtype=np.float64)[:, None]
    omega = posenc.frequencies(d_model, BASE)
    straight_far = np.empty((length, d_model))
    straight_far[:, 0::2] = np.sin(position * omega)
    straight_far[:, 1::2] = np.cos(position * omega)
    err[("numpy straightforward float64", "far")] = max_error(straight_far, ref_far)
    del straight_far
    if torch is not None:
        err[("torch PositionalEncoding float32", "near")] = max_error(
            torch_positional_encoding(length, d_model).numpy(), ref_near
        )
        err[("torch PositionalEncoding float32", "far")] = max_error(
            torch_positional_encoding(length, d_model, first=far_offset).numpy(), ref_far
        )

    if torch is not None:
        single = {
            p: max_error(
                torch_positional_encoding(1, d_model, first=p).numpy(), reference(1, d_model, p)
            )
            for p in (length, FAR)
        }
        print(
            "torch error in the single row p = "
            + ", p = ".join(f"{p}: {e:.1e}" for p, e in single.items())
        )
    near = f"p < {length}"
    far = f"{far_offset} <= p <= {FAR}"
    print()
    print(f"| implementation | median time (s) | max abs error, {near} | max abs error, {far} |")
    print("|---|---:|---:|---:|")
    for name in contenders:
        if name not in {key[0] for key in err}:
            print(f"| {name} | {t[name]:.4f} | same | same |")
            continue
        print(f"| {name} | {t[name]:.4f} | {err[name, 'near']:.2e} | {err[name, 'far']:.2e} |")

    rows = []
    failed = False
    if torch is not None:
        ratio = t["posenc float32"] / t["torch PositionalEncoding float32"]
        ok = ratio <= RATIO_F32
        rows.append(("(a) float32 time / torch", f"{ratio:.3f}", f"<= {RATIO_F32}", ok))
    else:
        rows.append(("(a) float32 time / torch", "skipped", f"<= {RATIO_F32}", None))
    e32 = max(err["posenc float32", "near"], err["posenc float32", "far"])
    rows.append((f"(a) float32 error, p <= {FAR}", f"{e32:.2e}", f"<= {ERR_F32:g}", e32 <= ERR_F32))
    ratio = t["posenc float64"] / t["numpy straightforward float64"]
    rows.append(("(b) float64 time / numpy", f"{ratio:.3f}", f"<= {RATIO_F64}", ratio <= RATIO_F64))
    e64 = err["posenc float64", "near"]
    rows.append((f"(b) float64 error, {near}", f"{e64:.2e}", f"<= {ERR_F64:g}", e64 <= ERR_F64))
    print()
    print("| check | measured | target | result |")
    print("|---|---:|---:|---|")
    for check, measured, target, ok in rows:
        print(f"| {check} | {measured} | {target} | {'SKIP' if ok is None else verdict(ok)} |")
        failed |= ok is False
    print()
    print(
        "note: float64 rows near p = 100 000 err by ~p * eps(omega) ~ 1e-11 in any code that"
        " rounds omega to float64 (the straightforward numpy too); that row is informational."
    )
    print("RESULT:", verdict(not failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
