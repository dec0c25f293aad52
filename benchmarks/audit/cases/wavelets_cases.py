"""pytorch-wavelets: discrete and dual-tree complex wavelet transforms, scattering layers."""
import torch

from . import case


@case("dwt_roundtrip")
def _():
    from pytorch_wavelets import DWTForward, DWTInverse

    fwd, inv = DWTForward(J=2, wave="db2", mode="symmetric"), DWTInverse(wave="db2", mode="symmetric")

    def roundtrip(x):
        return inv(fwd(x))

    return roundtrip, (torch.randn(1, 2, 16, 16),), {}


@case("dwt1d_periodization")
def _():
    from pytorch_wavelets import DWT1DForward

    return DWT1DForward(J=2, wave="db1", mode="periodization"), (torch.randn(2, 1, 32),), {}


@case("dtcwt_forward")
def _():
    from pytorch_wavelets import DTCWTForward

    return DTCWTForward(J=2), (torch.randn(1, 1, 16, 16),), {}


@case("scat_layer")
def _():
    from pytorch_wavelets import ScatLayer

    return ScatLayer(), (torch.randn(1, 1, 16, 16),), {}
