"""rtdl-revisiting-models: MLP, ResNet and FT-Transformer for tabular data."""
import torch

from . import case


@case("ft_transformer", grad=True)
def _():
    from rtdl_revisiting_models import FTTransformer

    net = FTTransformer(n_cont_features=3, cat_cardinalities=[4, 5], d_out=2,
                        **FTTransformer.get_default_kwargs(n_blocks=2))
    return net, (torch.randn(6, 3), torch.randint(0, 4, (6, 2))), {}


@case("ft_transformer_linformer")
def _():
    from rtdl_revisiting_models import FTTransformer

    kw = FTTransformer.get_default_kwargs(n_blocks=1)
    kw["linformer_kv_compression_ratio"], kw["linformer_kv_compression_sharing"] = 0.5, "headwise"
    net = FTTransformer(n_cont_features=6, cat_cardinalities=[], d_out=1, **kw)
    net.eval()
    return net, (torch.randn(4, 6), None), {}


@case("resnet")
def _():
    from rtdl_revisiting_models import ResNet

    res = ResNet(d_in=5, d_out=2, n_blocks=2, d_block=8, d_hidden=None, d_hidden_multiplier=2.0,
                 dropout1=0.1, dropout2=0.0)

    return res, (torch.randn(4, 5),), {}


@case("categorical_embeddings")
def _():
    from rtdl_revisiting_models import CategoricalEmbeddings

    return CategoricalEmbeddings([3, 4], d_embedding=8), (torch.randint(0, 3, (4, 2)),), {}
