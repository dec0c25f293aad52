"""Round 10 sequence models in lucidrains' style: minGRU / minLSTM (parallel scan in log space,
sequential step), their LM, and GateLoop (associative scan over gated linear recurrences)."""
import torch

from . import case


@case("mingru_parallel")
def _():
    from minGRU_pytorch import minGRU

    return minGRU(16), (torch.randn(2, 12, 16),), {}


@case("mingru_step")
def _():
    from minGRU_pytorch import minGRU

    return minGRU(16, expansion_factor=1.5), (torch.randn(2, 1, 16),), {
        "prev_hidden": torch.randn(2, 1, 24), "return_next_prev_hidden": True}


@case("minlstm_parallel")
def _():
    from minGRU_pytorch.minLSTM import minLSTM

    return minLSTM(16), (torch.randn(2, 12, 16),), {}


@case("minlm_loss", grad=True)
def _():
    from minGRU_pytorch.minLM import minLM

    model = minLM(num_tokens=32, dim=16, depth=2, enable_conv=True)
    return model, (torch.randint(0, 32, (2, 12)),), {"return_loss": True}


@case("gateloop_layer")
def _():
    from gateloop_transformer import SimpleGateLoopLayer

    return SimpleGateLoopLayer(dim=16), (torch.randn(2, 12, 16),), {}


@case("gateloop_transformer_loss", grad=True)
def _():
    from gateloop_transformer import Transformer

    model = Transformer(dim=16, num_tokens=32, depth=2, dim_head=8, heads=2, checkpoint_gate_looped_attn=False)
    return model, (torch.randint(0, 32, (2, 12)),), {"return_loss": True}
