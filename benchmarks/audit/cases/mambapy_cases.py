"""mambapy: Mamba, Mamba-2 and Jamba in plain PyTorch (parallel scan)."""
import torch

from . import case


@case("mamba")
def _():
    from mambapy.mamba import Mamba, MambaConfig

    return Mamba(MambaConfig(d_model=16, n_layers=2)), (torch.randn(2, 8, 16),), {}


@case("mamba_step")
def _():
    from mambapy.mamba import Mamba, MambaConfig

    cfg = MambaConfig(d_model=16, n_layers=2)
    model = Mamba(cfg)
    d_inner = cfg.expand_factor * cfg.d_model
    caches = [(None, torch.zeros(1, d_inner, cfg.d_conv - 1)) for _ in range(cfg.n_layers)]
    return model.step, (torch.randn(1, 16), caches), {}


@case("mamba_sequential_scan")
def _():
    from mambapy.mamba import Mamba, MambaConfig

    return Mamba(MambaConfig(d_model=16, n_layers=1, pscan=False)), (torch.randn(2, 8, 16),), {}


@case("vision_mamba_bidirectional")
def _():
    from mambapy.vim import MambaConfig, VMamba

    return VMamba(MambaConfig(d_model=16, n_layers=1)), (torch.randn(2, 8, 16),), {}


@case("jamba")
def _():
    from mambapy.jamba import Jamba, JambaLMConfig

    cfg = JambaLMConfig(d_model=16, n_layers=2, mlp_size=32, num_attention_heads=2, num_key_value_heads=2,
                        num_experts=2, num_experts_per_tok=1, attn_layer_offset=1, attn_layer_period=2,
                        expert_layer_offset=1, expert_layer_period=2)
    return Jamba(cfg), (torch.randn(2, 8, 16),), {}
