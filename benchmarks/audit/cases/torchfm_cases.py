"""torchfm (round 11): click-through-rate / recommender models over categorical fields
(factorization machines, DeepFM, xDeepFM's compressed interaction network, AutoInt, AFN)."""
import torch

from . import case

_FIELDS = (5, 7, 3, 4)


def _ids():
    return torch.stack([torch.randint(0, n, (8,)) for n in _FIELDS], dim=-1)


@case("fm")
def _():
    from torchfm.model.fm import FactorizationMachineModel

    return FactorizationMachineModel(_FIELDS, embed_dim=8), (_ids(),), {}


@case("field_aware_fm")
def _():
    from torchfm.model.ffm import FieldAwareFactorizationMachineModel

    return FieldAwareFactorizationMachineModel(_FIELDS, embed_dim=4), (_ids(),), {}


@case("deepfm")
def _():
    from torchfm.model.dfm import DeepFactorizationMachineModel

    return DeepFactorizationMachineModel(_FIELDS, embed_dim=8, mlp_dims=(16, 16), dropout=0.1), (_ids(),), {}


@case("xdeepfm")
def _():
    from torchfm.model.xdfm import ExtremeDeepFactorizationMachineModel

    return ExtremeDeepFactorizationMachineModel(_FIELDS, embed_dim=8, mlp_dims=(16,), dropout=0.1,
                                                cross_layer_sizes=(8, 8)), (_ids(),), {}


@case("autoint")
def _():
    from torchfm.model.afi import AutomaticFeatureInteractionModel

    return AutomaticFeatureInteractionModel(_FIELDS, embed_dim=8, atten_embed_dim=8, num_heads=2, num_layers=2,
                                            mlp_dims=(16,), dropouts=(0.0, 0.1)), (_ids(),), {}


@case("afn")
def _():
    from torchfm.model.afn import AdaptiveFactorizationNetwork

    return AdaptiveFactorizationNetwork(_FIELDS, embed_dim=8, LNN_dim=4, mlp_dims=(16,), dropouts=(0.1, 0.1)), (
        _ids(),), {}
