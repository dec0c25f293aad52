"""Round 10: fair-esm protein language models (ESM-2, MSA Transformer) built from code, no weights."""
import torch

from . import case


def _tokens(alphabet, batch=2, length=10):
    toks = torch.randint(4, 24, (batch, length))
    toks[:, 0] = alphabet.cls_idx
    toks[:, -1] = alphabet.eos_idx
    toks[1, -3:] = alphabet.padding_idx
    return toks


@case("esm2_forward")
def _():
    from esm.model.esm2 import ESM2

    model = ESM2(num_layers=2, embed_dim=32, attention_heads=4).eval()
    return model, (_tokens(model.alphabet),), {"repr_layers": [2]}


@case("esm2_contacts")
def _():
    from esm.model.esm2 import ESM2

    model = ESM2(num_layers=2, embed_dim=32, attention_heads=4).eval()
    return model, (_tokens(model.alphabet),), {"return_contacts": True}


@case("esm2_predict_contacts")
def _():
    from esm.model.esm2 import ESM2

    model = ESM2(num_layers=2, embed_dim=32, attention_heads=4).eval()
    return model.predict_contacts, (_tokens(model.alphabet),), {}


@case("msa_transformer_forward")
def _():
    from argparse import Namespace

    from esm.data import Alphabet
    from esm.model.msa_transformer import MSATransformer

    args = Namespace(layers=2, embed_dim=32, ffn_embed_dim=64, attention_heads=4, dropout=0.0,
                     attention_dropout=0.0, activation_dropout=0.0, max_tokens_per_msa=2 ** 14, max_tokens=2 ** 14,
                     max_positions=64, embed_positions_msa=True)
    alphabet = Alphabet.from_architecture("msa_transformer")
    model = MSATransformer(args, alphabet).eval()
    toks = torch.randint(4, 24, (1, 3, 8))
    toks[..., 0] = alphabet.cls_idx
    return model, (toks,), {"repr_layers": [2]}
