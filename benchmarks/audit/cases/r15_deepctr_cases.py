"""Round 15: deepctr-torch (CTR / recommendation models over feature columns: DeepFM, DCN,
AutoInt, FiBiNET, xDeepFM, and DIN/DIEN's attention over a behaviour sequence with its
length; the input is one float matrix sliced per feature by `feature_index`)."""
import torch

from . import case


def _columns(seq=False):
    from deepctr_torch.inputs import DenseFeat, SparseFeat, VarLenSparseFeat

    cols = [SparseFeat("user", 5, embedding_dim=4), SparseFeat("item_id", 7, embedding_dim=4),
            DenseFeat("price", 1)]
    if seq:
        cols += [VarLenSparseFeat(SparseFeat("hist_item_id", 7, embedding_dim=4, embedding_name="item_id"),
                                  maxlen=4, length_name="seq_length")]
    return cols


def _x(model, n=4):
    parts = []
    for name, (start, end) in model.feature_index.items():
        if name == "price":
            parts.append(torch.rand(n, end - start))
        elif name == "seq_length":
            parts.append(torch.tensor([[1.0], [4.0], [2.0], [3.0]])[:n])
        else:
            parts.append(torch.randint(1, 5, (n, end - start)).float())
    return torch.cat(parts, dim=-1)


def _model(cls, seq=False, **kw):
    cols = _columns(seq)
    model = cls(cols, cols, **kw) if not seq else cls(cols, ["item_id"], **kw)
    model.eval()
    return model, (_x(model),), {}


@case("deepfm")
def _():
    from deepctr_torch.models import DeepFM

    return _model(DeepFM, dnn_hidden_units=(8, 4))


@case("dcn_matrix")
def _():
    from deepctr_torch.models import DCN

    return _model(DCN, cross_num=2, cross_parameterization="matrix", dnn_hidden_units=(8,))


@case("autoint")
def _():
    from deepctr_torch.models import AutoInt

    return _model(AutoInt, att_layer_num=2, att_head_num=2, dnn_hidden_units=(8,))


@case("xdeepfm")
def _():
    from deepctr_torch.models import xDeepFM

    return _model(xDeepFM, cin_layer_size=(4, 4), dnn_hidden_units=(8,))


@case("fibinet")
def _():
    from deepctr_torch.models import FiBiNET

    return _model(FiBiNET, dnn_hidden_units=(8,))


@case("din")
def _():
    from deepctr_torch.models import DIN

    return _model(DIN, seq=True, dnn_hidden_units=(8,), att_hidden_size=(8, 4))


@case("dien_gru")
def _():
    from deepctr_torch.models import DIEN

    return _model(DIEN, seq=True, gru_type="AUGRU", use_negsampling=False, dnn_hidden_units=(8,),
                  att_hidden_units=(8, 4))
