"""Small layer packages: k-means, rotary embeddings, Nystrom attention, Perceiver, DCT, torchode."""
import torch

from . import case


@case("kmeans_fit_predict")
def _():
    from fast_pytorch_kmeans import KMeans

    return KMeans(n_clusters=3, max_iter=5, verbose=0).fit_predict, (torch.randn(50, 2),), {}


@case("rotary")
def _():
    from rotary_embedding_torch import RotaryEmbedding

    return RotaryEmbedding(dim=16).rotate_queries_or_keys, (torch.randn(1, 2, 8, 32),), {}


@case("rotary_xpos")
def _():
    from rotary_embedding_torch import RotaryEmbedding

    rot = RotaryEmbedding(dim=16, use_xpos=True)
    return rot.rotate_queries_and_keys, (torch.randn(1, 2, 8, 32), torch.randn(1, 2, 8, 32)), {}


@case("nystromformer_masked")
def _():
    from nystrom_attention import Nystromformer

    model = Nystromformer(dim=32, dim_head=16, heads=2, depth=1, num_landmarks=4).eval()
    return model, (torch.randn(1, 16, 32),), {"mask": torch.ones(1, 16, dtype=torch.bool)}


@case("perceiver")
def _():
    from perceiver_pytorch import Perceiver

    model = Perceiver(input_channels=3, input_axis=2, num_freq_bands=4, max_freq=10.0, depth=1,
                      num_latents=8, latent_dim=16, cross_heads=1, latent_heads=2, cross_dim_head=8,
                      latent_dim_head=8, num_classes=5, attn_dropout=0.0, ff_dropout=0.0,
                      weight_tie_layers=False, fourier_encode_data=True, self_per_cross_attn=1)
    return model.eval(), (torch.randn(1, 8, 8, 3),), {}


@case("dct_2d")
def _():
    import torch_dct

    return torch_dct.dct_2d, (torch.randn(4, 8, 8),), {"norm": "ortho"}


@case("torchode_dopri5")
def _():
    import torchode

    term = torchode.ODETerm(lambda t, y: -y)
    solver = torchode.AutoDiffAdjoint(torchode.Dopri5(term=term),
                                      torchode.IntegralController(atol=1e-6, rtol=1e-3, term=term))
    problem = torchode.InitialValueProblem(y0=torch.randn(2, 3), t_eval=torch.linspace(0, 1, 5).repeat(2, 1))
    return solver.solve, (problem,), {}
