"""Round 10: peft adapters (LoRA, DoRA, LoHa, LoKr, IA3) wrapped around a tiny nn.Module."""
import torch

from . import case


class _Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin0 = torch.nn.Linear(8, 16)
        self.conv = torch.nn.Conv1d(16, 16, 3, padding=1)
        self.lin1 = torch.nn.Linear(16, 4)

    def forward(self, x):
        h = torch.relu(self.lin0(x))
        h = self.conv(h.transpose(1, 2)).transpose(1, 2)
        return self.lin1(h)


def _wrapped(config):
    from peft import get_peft_model

    model = get_peft_model(_Net(), config)
    model.eval()
    return model, (torch.randn(2, 5, 8),), {}


@case("lora_forward")
def _():
    from peft import LoraConfig

    return _wrapped(LoraConfig(r=4, lora_alpha=8, target_modules=["lin0", "lin1", "conv"]))


@case("lora_dropout_train", grad=True)
def _():
    from peft import LoraConfig

    model, args, kw = _wrapped(LoraConfig(r=4, lora_dropout=0.1, target_modules=["lin0", "lin1"]))
    model.train()
    return model, args, kw


@case("dora_forward")
def _():
    from peft import LoraConfig

    return _wrapped(LoraConfig(r=4, use_dora=True, target_modules=["lin0", "lin1"]))


@case("loha_forward")
def _():
    from peft import LoHaConfig

    return _wrapped(LoHaConfig(r=4, target_modules=["lin0", "lin1"]))


@case("lokr_forward")
def _():
    from peft import LoKrConfig

    return _wrapped(LoKrConfig(r=4, target_modules=["lin0", "lin1"]))


@case("ia3_forward")
def _():
    from peft import IA3Config

    return _wrapped(IA3Config(target_modules=["lin0", "lin1"], feedforward_modules=["lin1"]))

