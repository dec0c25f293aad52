"""Round 17: PyKEEN (knowledge-graph embedding models: translational, rotational, bilinear,
convolutional and graph-convolutional interactions scored on triples and against all tails,
negative sampling, margin and self-adversarial losses)."""
import torch

from . import case


def _triples():
    g = torch.Generator().manual_seed(0)
    return torch.stack([torch.randint(0, 10, (30,), generator=g), torch.randint(0, 3, (30,), generator=g),
                        torch.randint(0, 10, (30,), generator=g)], 1)


def _model(cls, **kw):
    from pykeen.triples import CoreTriplesFactory

    mt = _triples()
    tf = CoreTriplesFactory.create(mapped_triples=mt, num_entities=10, num_relations=3)
    return cls(triples_factory=tf, random_seed=0, **kw), mt


@case("transe_score_hrt", grad=True)
def _():
    from pykeen.models import TransE

    m, mt = _model(TransE, embedding_dim=8)
    return m.score_hrt, (mt[:4],), {}


@case("rotate_score_t")
def _():
    from pykeen.models import RotatE

    m, mt = _model(RotatE, embedding_dim=8)
    return m.score_t, (mt[:4, :2],), {}


@case("conve_score_hrt", grad=True)
def _():
    from pykeen.models import ConvE

    m, mt = _model(ConvE, embedding_dim=16, output_channels=2, embedding_height=4, embedding_width=4)
    return m.score_hrt, (mt[:4],), {}


@case("rgcn_score_t")
def _():
    from pykeen.models import RGCN

    m, mt = _model(RGCN, embedding_dim=8, num_layers=1)
    return m.score_t, (mt[:4, :2],), {}


@case("tucker_predict_t")
def _():
    from pykeen.models import TuckER

    m, mt = _model(TuckER, embedding_dim=8, relation_dim=4)
    return m.predict_t, (mt[:4, :2],), {}


@case("boxe_score_hrt")
def _():
    from pykeen.models import BoxE

    m, mt = _model(BoxE, embedding_dim=8)
    return m.score_hrt, (mt[:4],), {}


@case("complex_predict_filtered")
def _():
    from pykeen.models import ComplEx

    m, mt = _model(ComplEx, embedding_dim=8)
    return m.predict, (mt[:4],), dict(target="tail", full_batch=False, ids=torch.arange(5))


@case("negative_sampler")
def _():
    from pykeen.sampling import BasicNegativeSampler

    return BasicNegativeSampler(mapped_triples=_triples(), num_negs_per_pos=2).sample, (_triples()[:4],), {}


@case("margin_ranking_loss", grad=True)
def _():
    from pykeen.losses import MarginRankingLoss

    pos = torch.randn(4, 1, requires_grad=True)
    neg = torch.randn(4, 2, requires_grad=True)
    return MarginRankingLoss().process_slcwa_scores, (pos, neg), {}


@case("nssa_loss", grad=True)
def _():
    from pykeen.losses import NSSALoss

    pos = torch.randn(4, 1, requires_grad=True)
    neg = torch.randn(4, 2, requires_grad=True)
    return NSSALoss().process_slcwa_scores, (pos, neg), dict(num_entities=10)
