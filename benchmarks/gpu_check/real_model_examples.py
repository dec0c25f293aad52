"""A real model for `tclint confirm --device cuda`: transformers' Llama with a tiny config
(no weights are downloaded), in training mode, through a full forward with labels."""
import torch


def tclint_examples(device="cpu"):
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    torch.manual_seed(0)
    model = LlamaForCausalLM(config).to(device).train()
    ids = torch.randint(0, 128, (2, 16), device=device)
    return [
        ("llama_train_forward", model, (ids,), {"labels": ids}),
        ("llama_eval_lengths", model.eval(), [((ids,), {}), ((ids[:, :12],), {})]),
    ]
