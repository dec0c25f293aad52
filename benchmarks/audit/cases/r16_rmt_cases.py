"""Round 16: recurrent-memory-transformer-pytorch (memory tokens read and written across segments,
Transformer-XL memories, hyper-connection residual streams; the wrapper that splits a long
sequence into segments and its loss; its sampling loop is left out: 7 minutes under Dynamo here, no break)."""
import torch

from . import case


def _rmt(**kw):
    from recurrent_memory_transformer_pytorch import RecurrentMemoryTransformer

    return RecurrentMemoryTransformer(32, num_tokens=64, depth=2, num_memory_tokens=4, seq_len=8,
                                      dim_head=8, heads=2, **kw).eval()


@case("forward")
def _():
    return _rmt(), (torch.randint(0, 64, (2, 8)),), {}


@case("forward_rotary")
def _():
    return _rmt(rotary_pos_emb=True, abs_pos_emb=False), (torch.randint(0, 64, (2, 8)),), {}


@case("forward_labels", grad=True)
def _():
    m = _rmt().train()
    x = torch.randint(0, 64, (2, 8))
    return m, (x,), dict(labels=torch.randint(0, 64, (2, 8)))


@case("wrapper_loss", grad=True)
def _():
    from recurrent_memory_transformer_pytorch import RecurrentMemoryTransformerWrapper

    w = RecurrentMemoryTransformerWrapper(_rmt().train())
    return w, (torch.randint(0, 64, (2, 20)),), dict(return_loss=True)
