"""上传与下载的内存上限的文字（issue #24），两个页面的键。"""

TEXTS = {
    "heatmap.upload_caps": "最多 {mb} MB，L ≤ {rows:,}，d ≤ {cols:,}，且 L × d ≤ {cells:,} 个数；应用以 float32 保存（约 7 位有效数字）。",
    "heatmap.npy_cells": "共 {cells} 个数（{rows} × {cols}）；最多保留 {limit} 个",
    "heatmap.npy_float32_range": "数值达到 ±{largest}，超出 float32 的范围（最大 ±3.4e38），而应用以 float32 保存矩阵；请先缩小数值",
    "heatmap.npy_header_long": ".npy 文件头长 {length} 个字符；最多读取 {limit} 个",
    "common.download_no_csv": "不提供 CSV：{rows:,} × {cols:,} 个数最多会有 {size} MB，而这里每个下载最多 {limit} MB。.npy 含有同样的数。",
    "common.download_float32": ".npy 中是 float32（约 7 位有效数字）：用 float64 会有 {size} MB，超过这里每个下载的上限 {limit} MB。",
    "common.download_too_large": "{rows:,} × {cols:,} 个数太多，无法在这里下载（每个下载最多 {limit} MB）。",
    "common.download_python": "在 Python 中：`{code}`",
}
