"""Building blocks: attention, MLP, and the checks people add while debugging."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def has_nan(x: torch.Tensor):
    return torch.isnan(x).any()


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int = 4, causal: bool = False):
        super().__init__()
        self.heads = heads
        self.scale = 1.0 / math.sqrt(dim // heads)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.causal = causal

    def forward(self, x: torch.Tensor, pad_mask=None) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.qkv(x).reshape(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4).unbind(0)
        scores = (q @ k.transpose(-2, -1)) * self.scale
        if self.causal:  # a Python bool: fine
            scores = scores.masked_fill(torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
        if pad_mask is not None:  # an identity check: fine
            scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        if has_nan(scores):  # branches on tensor data: graph break
            scores = torch.nan_to_num(scores)
        out = F.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, t, c))


class MLP(nn.Module):
    def __init__(self, dim: int, hidden: int, dropout: float = 0.0):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.dropout = dropout

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        if self.training and self.dropout > 0:  # static: fine
            h = F.dropout(h, self.dropout)
        return self.fc2(h)


class Block(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = MLP(dim, dim * 4)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))
