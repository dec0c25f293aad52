"""pytorch-tcn: temporal convolutional networks (causal, streaming inference with buffers)."""
import torch

from . import case


@case("tcn_causal", grad=True)
def _():
    from pytorch_tcn import TCN

    net = TCN(num_inputs=4, num_channels=[8, 8], kernel_size=3, causal=True)
    return net, (torch.randn(2, 4, 32),), {}


@case("tcn_noncausal_weightnorm")
def _():
    from pytorch_tcn import TCN

    net = TCN(num_inputs=4, num_channels=[8, 8, 8], kernel_size=3, causal=False, use_norm="weight_norm",
              use_skip_connections=True, input_shape="NLC")
    return net, (torch.randn(2, 32, 4),), {}


@case("tcn_streaming_inference")
def _():
    from pytorch_tcn import TCN

    net = TCN(num_inputs=4, num_channels=[8, 8], kernel_size=3, causal=True)
    net.eval()
    return net.inference, (torch.randn(1, 4, 1),), {}


@case("tcn_embedding_conditioned")
def _():
    from pytorch_tcn import TCN

    net = TCN(num_inputs=4, num_channels=[8, 8], kernel_size=3, causal=True, embedding_shapes=[(5,)],
              embedding_mode="add")
    return net, (torch.randn(2, 4, 32),), {"embeddings": [torch.randn(2, 5)]}


@case("temporal_conv1d")
def _():
    from pytorch_tcn import TemporalConv1d

    return TemporalConv1d(4, 8, kernel_size=3, dilation=2, causal=True), (torch.randn(2, 4, 16),), {}
