"""Round 17: pytorch-ignite metrics (`update()` on a batch and `compute()`: accuracy, precision,
confusion matrix, top-k, SSIM, PSNR, R2, recommender HitRate and NDCG, a loss metric)."""
import torch

from . import case


def _cls(n=8, c=4):
    return torch.randn(n, c).softmax(-1), torch.randint(0, c, (n,))


@case("accuracy_update")
def _():
    from ignite.metrics import Accuracy

    return Accuracy().update, (_cls(),), {}


@case("precision_update")
def _():
    from ignite.metrics import Precision

    m = Precision(average="macro")
    m.update(_cls())
    return m.update, (_cls(),), {}


@case("confusion_matrix_compute")
def _():
    from ignite.metrics import ConfusionMatrix

    m = ConfusionMatrix(num_classes=4)
    m.update(_cls())
    return m.compute, (), {}


@case("confusion_matrix_update")
def _():
    from ignite.metrics import ConfusionMatrix

    return ConfusionMatrix(num_classes=4).update, (_cls(),), {}


@case("topk_update")
def _():
    from ignite.metrics import TopKCategoricalAccuracy

    return TopKCategoricalAccuracy(k=2).update, (_cls(),), {}


@case("ssim_update")
def _():
    from ignite.metrics import SSIM

    a = torch.rand(2, 3, 16, 16)
    return SSIM(data_range=1.0, kernel_size=5).update, ((a, a * 0.9),), {}


@case("psnr_update")
def _():
    from ignite.metrics import PSNR

    a = torch.rand(2, 3, 8, 8)
    return PSNR(data_range=1.0).update, ((a, a * 0.9),), {}


@case("r2_update")
def _():
    from ignite.metrics.regression import R2Score

    return R2Score().update, ((torch.randn(8), torch.randn(8)),), {}


@case("hitrate_update")
def _():
    from ignite.metrics.rec_sys import HitRate

    y = (torch.rand(4, 10) > 0.7).float()
    return HitRate(top_k=[1, 3]).update, ((torch.randn(4, 10), y),), {}


@case("ndcg_update")
def _():
    from ignite.metrics.rec_sys import NDCG

    y = torch.randint(0, 3, (4, 10)).float()
    return NDCG(top_k=[2, 5]).update, ((torch.randn(4, 10), y),), {}


@case("loss_update", grad=True)
def _():
    from ignite.metrics import Loss

    logits, y = torch.randn(8, 4, requires_grad=True), torch.randint(0, 4, (8,))
    return Loss(torch.nn.functional.cross_entropy).update, ((logits, y),), {}
