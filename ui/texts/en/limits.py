"""Texts of the memory caps on uploads and downloads (issue #24), both pages' keys."""

TEXTS = {
    "heatmap.upload_caps": "At most {mb} MB, L ≤ {rows:,}, d ≤ {cols:,} and L × d ≤ {cells:,} numbers; the app keeps them as float32 (about 7 significant digits).",
    "heatmap.npy_cells": "{cells} numbers ({rows} × {cols}); at most {limit} are kept",
    "heatmap.npy_float32_range": "a value as large as ±{largest} does not fit float32 (largest ±3.4e38), in which the app keeps the matrix; scale it down first",
    "heatmap.npy_header_long": "the .npy header is {length} characters long; at most {limit} are read",
    "common.download_no_csv": "No CSV: {rows:,} × {cols:,} numbers would make up to {size} MB, and a download here is at most {limit} MB. The .npy holds the same numbers.",
    "common.download_float32": "The .npy holds float32 (about 7 significant digits): in float64 it would be {size} MB, over the {limit} MB a download here may take.",
    "common.download_too_large": "{rows:,} × {cols:,} numbers are too many for a download here (at most {limit} MB).",
    "common.download_python": "In Python: `{code}`",
}
