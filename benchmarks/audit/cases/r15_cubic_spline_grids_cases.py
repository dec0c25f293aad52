"""Round 15: torch-cubic-spline-grids (learnable B-spline and Catmull-Rom grids interpolated at
coordinates, in minibatches, with optional monotonicity)."""
import torch

from . import case


@case("bspline_1d", grad=True)
def _():
    from torch_cubic_spline_grids import CubicBSplineGrid1d

    grid = CubicBSplineGrid1d(resolution=(6,))
    return grid, (torch.rand(10),), {}


@case("bspline_2d_minibatch", grad=True)
def _():
    from torch_cubic_spline_grids import CubicBSplineGrid2d

    grid = CubicBSplineGrid2d(resolution=(4, 5), minibatch_size=4)
    return grid, (torch.rand(10, 2),), {}


@case("catmull_rom_3d")
def _():
    from torch_cubic_spline_grids import CubicCatmullRomGrid3d

    grid = CubicCatmullRomGrid3d.from_grid_data(torch.randn(1, 3, 4, 5))
    return grid, (torch.rand(7, 3),), {}


@case("catmull_rom_1d_monotonic", grad=True)
def _():
    from torch_cubic_spline_grids import CubicCatmullRomGrid1d

    grid = CubicCatmullRomGrid1d(resolution=(6,), monotonicity="increasing")
    return grid, (torch.rand(9),), {}
