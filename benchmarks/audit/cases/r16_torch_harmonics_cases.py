"""Round 16: torch-harmonics (signal processing on the sphere: real spherical harmonic transforms
by Legendre quadrature and FFT, their vector forms, resampling between grids, spectral
convolutions, Gaussian random fields)."""
import torch

from . import case


@case("sht")
def _():
    from torch_harmonics import RealSHT

    return RealSHT(8, 16, grid="equiangular"), (torch.randn(2, 8, 16),), {}


@case("isht")
def _():
    from torch_harmonics import InverseRealSHT

    return InverseRealSHT(8, 16, grid="equiangular"), (torch.randn(2, 4, 4, dtype=torch.complex64),), {}


@case("vector_sht")
def _():
    from torch_harmonics import RealVectorSHT

    return RealVectorSHT(8, 16, grid="legendre-gauss"), (torch.randn(1, 2, 8, 16),), {}


@case("resample")
def _():
    from torch_harmonics import ResampleS2

    return ResampleS2(8, 16, 12, 24, grid_in="equiangular", grid_out="equiangular"), (torch.randn(1, 8, 16),), {}


@case("random_field")
def _():
    from torch_harmonics.random_fields import GaussianRandomFieldS2

    return GaussianRandomFieldS2(8), (2,), {}


@case("spectral_conv", grad=True)
def _():
    from torch_harmonics.spectral_convolution import SpectralConvS2

    return SpectralConvS2((8, 16), (8, 16), 3, 4), (torch.randn(1, 3, 8, 16),), {}
