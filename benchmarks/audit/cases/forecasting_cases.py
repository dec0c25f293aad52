"""Round 12: time-series forecasting networks (pytorch-forecasting): the Temporal Fusion
Transformer's gated residual and variable-selection networks and interpretable attention,
N-HiTS and TiDE cores, the zero-length-aware LSTM, and the quantile and distribution losses."""
import torch

from . import case


@case("tft_variable_selection")
def _():
    from pytorch_forecasting.models.temporal_fusion_transformer.sub_modules import VariableSelectionNetwork

    vsn = VariableSelectionNetwork(input_sizes={"a": 1, "b": 3, "c": 2}, hidden_size=8, dropout=0.1,
                                   context_size=8)
    x = {"a": torch.randn(4, 5, 1), "b": torch.randn(4, 5, 3), "c": torch.randn(4, 5, 2)}
    return vsn, (x, torch.randn(4, 5, 8)), {}


@case("tft_grn_resample")
def _():
    from pytorch_forecasting.models.temporal_fusion_transformer.sub_modules import GatedResidualNetwork

    return GatedResidualNetwork(input_size=6, hidden_size=8, output_size=4, dropout=0.1, context_size=3), (
        torch.randn(4, 6), torch.randn(4, 3)), {}


@case("tft_attention")
def _():
    from pytorch_forecasting.models.temporal_fusion_transformer.sub_modules import (
        InterpretableMultiHeadAttention)

    attn = InterpretableMultiHeadAttention(n_head=2, d_model=8, dropout=0.1)
    q = torch.randn(2, 5, 8)
    mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)[None].expand(2, 5, 5)
    return attn, (q, q, q), {"mask": mask}


@case("nhits")
def _():
    from pytorch_forecasting.models.nhits.sub_modules import NHiTS

    model = NHiTS(context_length=8, prediction_length=4, output_size=[1], static_size=0,
                  encoder_covariate_size=1, decoder_covariate_size=1, static_hidden_size=0,
                  n_blocks=[1, 1], n_layers=[1, 1], hidden_size=[[8], [8]], pooling_sizes=[2, 1],
                  downsample_frequencies=[2, 1], pooling_mode="max", interpolation_mode="linear",
                  dropout=0.0, activation="ReLU", initialization="lecun_normal", batch_normalization=False,
                  shared_weights=False, naive_level=True)
    return model, (torch.randn(2, 8, 1), torch.ones(2, 8, dtype=torch.bool), torch.randn(2, 8, 1),
                   torch.randn(2, 4, 1), torch.randn(2, 0)), {}


@case("tide")
def _():
    from pytorch_forecasting.models.tide.sub_modules import _TideModule

    model = _TideModule(output_dim=1, future_cov_dim=2, static_cov_dim=1, output_chunk_length=4,
                        input_chunk_length=8, num_encoder_layers=1, num_decoder_layers=1,
                        decoder_output_dim=4, hidden_size=8, temporal_decoder_hidden=8,
                        temporal_width_future=2, use_layer_norm=True, dropout=0.1,
                        temporal_hidden_size_future=4)
    x_past = torch.randn(2, 8, 3)
    return model, ((x_past, torch.randn(2, 4, 2), torch.randn(2, 1)),), {}


@case("lstm_zero_lengths")
def _():
    from pytorch_forecasting.models.nn.rnn import LSTM

    lstm = LSTM(input_size=3, hidden_size=4, batch_first=True)
    return lstm, (torch.randn(3, 5, 3),), {"lengths": torch.tensor([5, 0, 3]), "enforce_sorted": False}


@case("quantile_loss")
def _():
    from pytorch_forecasting.metrics import QuantileLoss

    return QuantileLoss().loss, (torch.randn(2, 4, 7), torch.randn(2, 4)), {}


@case("normal_distribution_loss")
def _():
    from pytorch_forecasting.metrics import NormalDistributionLoss

    loss = NormalDistributionLoss()
    loss._transformation = None  # what rescale_parameters sets from an identity encoder
    y_pred = torch.stack([torch.zeros(2, 4), torch.zeros(2, 4), torch.randn(2, 4), torch.rand(2, 4) + 0.1], -1)
    return loss.loss, (y_pred, torch.randn(2, 4)), {}
