"""Round 17: torch-ppr (PageRank and personalized PageRank on sparse adjacency matrices by
power iteration, batched over source nodes, with input validation)."""
import torch

from . import case


def _edges(n=12):
    src = torch.arange(n)
    return torch.stack([torch.cat([src, src]), torch.cat([(src + 1) % n, (src * 5 + 3) % n])])


@case("page_rank")
def _():
    from torch_ppr import page_rank

    return page_rank, (), dict(edge_index=_edges(), max_iter=20, device="cpu")


@case("personalized_page_rank")
def _():
    from torch_ppr import personalized_page_rank

    return personalized_page_rank, (), dict(edge_index=_edges(), indices=torch.tensor([0, 3]), max_iter=20,
                                            device="cpu", batch_size=2)


@case("power_iteration")
def _():
    from torch_ppr.utils import edge_index_to_sparse_matrix, power_iteration, prepare_page_rank_adjacency, prepare_x0

    adj = prepare_page_rank_adjacency(edge_index=_edges(), add_identity=True)
    x0 = prepare_x0(indices=torch.tensor([1, 2]), n=12)
    return power_iteration, (), dict(adj=adj, x0=x0, alpha=0.1, max_iter=15, use_tqdm=False, epsilon=1e-4)


@case("validate_adjacency")
def _():
    from torch_ppr.utils import prepare_page_rank_adjacency, validate_adjacency

    adj = prepare_page_rank_adjacency(edge_index=_edges())
    return validate_adjacency, (adj,), dict(n=12)
