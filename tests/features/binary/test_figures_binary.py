"""Builders and caches of the page "Binary counter vs sinusoid": shapes, values, payloads."""

import numpy as np
import pytest
from support.screen import decode

import posenc
from posenc.criteria import Pair, scheme_criteria, sine_table
from ui.features.binary import data
from ui.features.binary import figures as figs
from ui.features.binary.view import criteria_frame
from ui.plain.grids import MAX_CHART_BYTES, chart_bytes, downsample

TITLES = list(posenc.SCHEMES)


def as_array(value):
    return np.asarray(decode(value), dtype=float)


# --- block means without the full matrix ---------------------------------------------


@pytest.mark.parametrize("name", ["binary", "sinusoidal", "sin_pow2"])
def test_distance_grid_is_the_downsampled_distance_matrix(name):
    table = posenc.scheme_table(name, 900, 12, 30.0)
    full = np.linalg.norm(table[:, None] - table[None], axis=-1)
    grid = data.distance_grid(name, 900, 12, 30.0)
    want = downsample(full, data.DISTANCE_CELLS, data.DISTANCE_CELLS)
    assert grid.downsampled and grid.z.shape == want.z.shape
    np.testing.assert_allclose(grid.z, want.z, atol=1e-5)


def test_evolution_grids_hold_each_scheme_table_and_its_largest_value():
    grids, tops = data.evolution_grids(20, 6, 10.0)
    for name, grid, top in zip(posenc.SCHEMES, grids, tops, strict=True):
        table = posenc.scheme_table(name, 20, 6, 10.0)
        assert not grid.downsampled
        np.testing.assert_allclose(grid.z, table, atol=1e-6)
        assert top == np.abs(table).max()


def test_evolution_grids_leave_the_default_width_whole():
    grids, _ = data.evolution_grids(50, 128, 10000.0)
    assert not any(grid.downsampled for grid in grids)  # sin and cos never averaged


def test_counter_curves_sample_the_bits_and_their_pairs():
    curves = data.counter_curves(4)
    np.testing.assert_array_equal(curves["square"][:, :16].T[:, ::-1], posenc.binary(16, 4))
    assert curves["sin"].shape == curves["smooth"].shape == (4, curves["t"].size)
    # bit 3 has wavelength 16: its pair repeats after 16 positions
    t = curves["t"]
    np.testing.assert_allclose(curves["sin"][3], np.sin(2 * np.pi * t / 16), atol=1e-12)


# --- figures -----------------------------------------------------------------------


def test_evolution_figure_gives_each_scheme_its_own_colour_range():
    grids, tops = data.evolution_grids(50, 16, 10000.0)
    fig = figs.evolution_figure(grids, tops, TITLES, "dimension", "position")
    assert len(fig.data) == 5
    assert fig.layout.coloraxis.cmax == 49.0  # index reaches L - 1
    assert fig.layout.coloraxis5.cmax == pytest.approx(1.0)
    assert len({trace.coloraxis for trace in fig.data}) == 5
    # A sine table tops out just short of 1 (0.99999...): its bar still reads ±1.
    sines = [fig.layout[f"coloraxis{c}"].colorbar.ticktext for c in (3, 4, 5)]
    assert all(list(text) == ["-1", "0", "1"] for text in sines), sines


def test_evolution_figure_at_the_largest_settings_is_under_1_mb():
    grids, tops = data.evolution_grids(8192, 4096, 1e9)
    assert grids[0].z.shape[0] <= data.EVOLUTION_ROWS
    assert grids[0].z.shape[1] <= data.EVOLUTION_COLS
    assert tops[0] == 8191.0  # the true L - 1, not a block mean
    fig = figs.evolution_figure(grids, tops, TITLES, "dimension", "position")
    assert chart_bytes(fig) < MAX_CHART_BYTES


def test_distance_figure_at_the_largest_length_is_under_1_mb():
    grid = data.distance_grid("binary", 8192, 4096, 1e9)
    fig = figs.distance_figure(grid, x_title="n", y_title="m", value_title="distance")
    assert chart_bytes(fig) < MAX_CHART_BYTES
    assert fig.data[0].zmin == 0


def test_distance_figure_titles_its_colour_bar_and_keeps_it_beside_the_plot():
    grid = data.distance_grid("sinusoidal", 50, 128, 1e4)
    fig = figs.distance_figure(grid, x_title="n", y_title="m", value_title="‖e(m) − e(n)‖")
    assert fig.data[0].colorbar.title.text == "‖e(m) − e(n)‖"
    # A square plot (x scaled to y) shrank inside the width, far from the colour bar.
    assert fig.layout.xaxis.scaleanchor is None and fig.layout.xaxis.constrain is None


def test_waves_figure_hover_names_the_curve_the_bit_and_the_position():
    curves = data.counter_curves(3)
    names = {"bit": "bit", "sin": "sin", "cos": "cos", "smooth": "smooth", "position": "p"}
    fig = figs.waves_figure(3, **curves, names=names, row_titles=["0", "1", "2"])
    assert len(fig.data) == 3 * 4
    for k, trace in enumerate(fig.data):
        assert trace.hovertemplate.startswith(f"{trace.name}, i = {k // 4}<br>p = %{{x")


def test_waves_figure_at_six_bits_is_under_1_mb_and_jumps_between_positions():
    curves = data.counter_curves(6)
    names = {key: key for key in ("bit", "sin", "cos", "smooth", "position")}
    fig = figs.waves_figure(6, **curves, names=names, row_titles=[str(i) for i in range(6)])
    assert chart_bytes(fig) < MAX_CHART_BYTES
    squares = [trace for trace in fig.data if trace.line.shape == "hvh"]
    assert len(squares) == 6
    np.testing.assert_array_equal(squares[0].y, np.arange(65) % 2)


def test_envelope_keeps_every_jump_of_the_binary_counter():
    steps = scheme_criteria("binary", 8192, 16).steps
    x, y = figs.envelope(steps)
    assert y.size <= figs.MAX_LINE_POINTS
    assert y.max() == steps.max() and y.min() == steps.min()
    assert np.all(np.diff(x) >= 0)
    np.testing.assert_array_equal(y, steps[x])  # only true points, in order


def test_envelope_leaves_short_curves_alone():
    y = np.arange(10.0)
    x, same = figs.envelope(y)
    np.testing.assert_array_equal(same, y)
    np.testing.assert_array_equal(x, np.arange(10))


def test_steps_figure_at_the_largest_length_is_under_1_mb():
    rows = [scheme_criteria(name, 8192, 64, k=1) for name in posenc.SCHEMES]
    fig = figs.steps_figure([r.steps for r in rows], TITLES, "p", "distance")
    assert chart_bytes(fig) < MAX_CHART_BYTES
    assert len(fig.data) == 5


def test_trajectory_figure_marks_the_closest_far_pair():
    path = sine_table(50, [1.0, 0.5, 0.25])
    fig = figs.trajectory_figure(
        path, Pair(0.05, 8, 33), curve=sine_table(np.linspace(0, 49, 400), [1.0, 0.5, 0.25]),
        position="p", pair_label="pair",
    )  # fmt: skip
    marked = next(trace for trace in fig.data if trace.name == "pair: p = 8, 33")
    assert "text" not in marked.mode and marked.text is None  # named in the legend only
    np.testing.assert_allclose(marked.x, path[[8, 33], 0])
    assert chart_bytes(fig) < MAX_CHART_BYTES
    # Seed 003: "the later the position, the darker" (early yellow, late brown-black).
    points = next(trace for trace in fig.data if trace.mode == "markers")
    scale = points.marker.colorscale
    assert list(points.marker.color) == list(range(50))
    assert scale[0][1].lower() == "#fde725" and scale[-1][1].lower() == "#440154"


def test_trajectory_figure_titles_three_axes_and_keeps_ticks_off_the_corners():
    fig = figs.trajectory_figure(sine_table(20, [1.0, 0.5, 0.25]), Pair(np.nan, -1, -1),
                                 position="p", pair_label="pair")  # fmt: skip
    scene = fig.layout.scene
    axes = (scene.xaxis, scene.yaxis, scene.zaxis)
    assert [axis.title.text for axis in axes] == ["sin ω₀p", "sin ω₁p", "sin ω₂p"]
    for axis in axes:  # the corner ticks (±1) of two axes were printed over each other
        assert max(abs(v) for v in axis.tickvals) < 1
    # A smaller cube leaves room for the z axis' title at the left edge.
    assert scene.aspectmode == "manual"
    assert max(scene.aspectratio.x, scene.aspectratio.y, scene.aspectratio.z) < 1


def test_trajectory_figure_without_a_pair_marks_nothing():
    fig = figs.trajectory_figure(sine_table(3, [1.0, 1.0, 1.0]), Pair(np.nan, -1, -1),
                                 position="p", pair_label="pair")  # fmt: skip
    assert [trace.name for trace in fig.data if (trace.name or "").startswith("pair")] == []


def test_criteria_frame_marks_pass_and_fail_beside_the_number():
    rows = [scheme_criteria(name, 50, 128) for name in posenc.SCHEMES]
    labels = {key: key for key in ("scheme", "unique", "bounded", "offset", "length")}
    labels |= {"extrapolates": "extrapolates"} | {f"scheme_{n}": n for n in posenc.SCHEMES}
    frame = criteria_frame(rows, labels)
    assert frame.loc[0, "bounded"] == "✗ 49"
    assert frame.loc[2, "unique"] == "✓ 1"
    assert frame.loc[1, "length"].startswith("✗ 0.50")
    assert frame.loc[4, "extrapolates"].startswith("✓ [-1, 1]")
    single = criteria_frame([scheme_criteria("binary", 1, 4)], labels)
    assert single.loc[0, "unique"] == "– n/a"


@pytest.mark.parametrize("bits", [2, 3])
def test_code_space_puts_each_position_on_its_corner_in_order(bits):
    codes = posenc.binary(2**bits, bits)
    fig = figs.code_space_figure(codes, position="p").to_plotly_json()
    (trace,) = fig["data"]
    corners = np.column_stack([decode(trace[a]) for a in "xyz"[:bits]])
    np.testing.assert_array_equal(corners, codes)  # b_(bits-1) on x, as in the table
    assert trace["text"] == [str(p) for p in range(2**bits)]
    assert trace["type"] == ("scatter" if bits == 2 else "scatter3d")


def test_code_space_refuses_other_widths():
    with pytest.raises(ValueError, match="2 or 3 columns"):
        figs.code_space_figure(np.zeros((16, 4)), position="p")
