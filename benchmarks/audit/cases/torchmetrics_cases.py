"""torchmetrics: functional metrics and stateful Metric modules."""
import torch

from . import case


@case("multiclass_accuracy")
def _():
    from torchmetrics.functional.classification import multiclass_accuracy

    return multiclass_accuracy, (torch.randn(16, 4).softmax(-1), torch.randint(0, 4, (16,)), 4), {}


@case("binary_auroc")
def _():
    from torchmetrics.functional.classification import binary_auroc

    return binary_auroc, (torch.rand(32), torch.randint(0, 2, (32,))), {}


@case("multiclass_f1")
def _():
    from torchmetrics.functional.classification import multiclass_f1_score

    return multiclass_f1_score, (torch.randint(0, 3, (20,)), torch.randint(0, 3, (20,)), 3), {}


@case("ssim")
def _():
    from torchmetrics.functional.image import structural_similarity_index_measure

    return structural_similarity_index_measure, (torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)), \
        {"data_range": 1.0}


@case("pearson")
def _():
    from torchmetrics.functional.regression import pearson_corrcoef

    return pearson_corrcoef, (torch.randn(20), torch.randn(20)), {}


@case("mean_squared_error_metric")
def _():
    from torchmetrics.regression import MeanSquaredError

    return MeanSquaredError(), (torch.randn(10), torch.randn(10)), {}


@case("multiclass_confusion_matrix")
def _():
    from torchmetrics.functional.classification import multiclass_confusion_matrix

    return multiclass_confusion_matrix, (torch.randint(0, 3, (20,)), torch.randint(0, 3, (20,)), 3), {}
