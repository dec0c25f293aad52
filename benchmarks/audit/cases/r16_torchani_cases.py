"""Round 16: TorchANI (neural network potentials for chemistry, assembled from code without a
checkpoint: species conversion, all-pairs neighbor lists with cutoffs, atomic environment vectors
from radial and angular terms over triples, per-element networks, ensembles, and energies and
forces by autograd)."""
import torch

from . import case


def _ani(ensemble=1):
    from torchani.arch import Assembler

    asm = Assembler(periodic_table_index=True)
    asm.set_symbols(("H", "C", "N", "O"))
    asm.set_atomic_networks(ctor="ani1x")
    asm.set_global_cutoff_fn("cosine")
    asm.set_aev_computer(angular="ani1x", radial="ani1x", strategy="pyaev")
    asm.set_neighborlist("all_pairs")
    asm.set_zeros_as_self_energies()
    return asm.assemble(ensemble)


def _molecule():
    species = torch.tensor([[6, 1, 1, 1, 1]])
    coords = torch.tensor([[[0.0, 0.0, 0.0], [0.63, 0.63, 0.63], [-0.63, -0.63, 0.63],
                            [-0.63, 0.63, -0.63], [0.63, -0.63, -0.63]]])
    return species, coords + 0.01 * torch.randn(1, 5, 3)


@case("energies")
def _():
    return _ani(), (_molecule(),), {}


@case("energies_ensemble")
def _():
    return _ani(2), (_molecule(),), dict(ensemble_values=True)


@case("atomic_energies")
def _():
    return _ani().atomic_energies, (_molecule(),), {}


@case("aev")
def _():
    model = _ani()
    species, coords = _molecule()
    return model.aev_computer, (model.species_converter(species), coords), {}


@case("energies_and_forces", grad=True)
def _():
    from torchani.grad import energies_and_forces

    species, coords = _molecule()
    return energies_and_forces, (_ani(), species, coords), {}


@case("neighborlist")
def _():
    from torchani.neighbors import AllPairs

    species, coords = _molecule()
    return AllPairs(), (5.2, species, coords), {}
