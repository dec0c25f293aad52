"""torchkbnufft: non-uniform FFTs (MRI reconstruction) with Kaiser-Bessel interpolation."""
import math

import torch

from . import case


def _ktraj(n=40):
    return (torch.rand(2, n) * 2 - 1) * math.pi


@case("kbnufft_forward")
def _():
    import torchkbnufft as tkbn

    op = tkbn.KbNufft(im_size=(8, 8))
    return op, (torch.randn(1, 1, 8, 8, dtype=torch.complex64), _ktraj()), {}


@case("kbnufft_adjoint_table")
def _():
    import torchkbnufft as tkbn

    op = tkbn.KbNufftAdjoint(im_size=(8, 8), numpoints=4)
    return op, (torch.randn(1, 1, 40, dtype=torch.complex64), _ktraj()), {}


@case("kbnufft_sparse_matrix")
def _():
    import torchkbnufft as tkbn

    op = tkbn.KbNufft(im_size=(8, 8))
    ktraj = _ktraj()
    spmat = tkbn.calc_tensor_spmatrix(ktraj, im_size=(8, 8))
    return op, (torch.randn(1, 1, 8, 8, dtype=torch.complex64), ktraj), {"interp_mats": spmat}


@case("toeplitz_nufft")
def _():
    import torchkbnufft as tkbn

    ktraj = _ktraj()
    kernel = tkbn.calc_toeplitz_kernel(ktraj, im_size=(8, 8))
    return tkbn.ToepNufft(), (torch.randn(1, 1, 8, 8, dtype=torch.complex64), kernel), {}


@case("density_compensation")
def _():
    import torchkbnufft as tkbn

    return tkbn.calc_density_compensation_function, (_ktraj(),), {"im_size": (8, 8), "num_iterations": 2}


@case("kbinterp_functional")
def _():
    import torchkbnufft as tkbn

    op = tkbn.KbInterp(im_size=(8, 8), grid_size=(16, 16))
    return op, (torch.randn(1, 1, 16, 16, dtype=torch.complex64), _ktraj()), {}
