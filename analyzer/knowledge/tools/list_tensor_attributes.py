"""Writes the names `torch.Tensor` has (methods and attributes, dunders left out) as the
table tclint reads (`analyzer/knowledge/tensor_attributes.json`): a value whose code reads
an attribute outside it is not a tensor. Beside them, the classes of torch's tensor namespaces
that build a tensor when called (`torch.Tensor`, `torch.FloatTensor`): the namespaces' other
classes (`torch.Size`, `torch.Generator`) build Python objects; and the names of torch.nn's
nn.Module classes (`Linear`, `DistributedDataParallel`), which torch.nn's other classes
(`PackedSequence`, `SDPBackend`) are not: a name's spelling does not say which. Run on demand with the torch to describe installed;
the analyzer never imports this file:

    python analyzer/knowledge/tools/list_tensor_attributes.py [-o TABLE.json]
"""
from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

import torch

DEFAULT = Path(__file__).resolve().parents[1] / "tensor_attributes.json"
NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")  # tensor_api.TENSOR_NAMESPACES


def tensor_types() -> list[str]:
    found = []
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        for name in dir(module):
            value = getattr(module, name, None)
            if isinstance(value, type) and (value in torch._tensor_classes or issubclass(value, torch.Tensor)):
                found.append(f"{namespace}.{name}")
    return sorted(found)


def namespace_classes() -> list[str]:
    """Every class the tensor namespaces bind, whatever its spelling (`torch.dtype`)."""
    return sorted(f"{namespace}.{name}" for namespace in NAMESPACES
                  for name, value in vars(importlib.import_module(namespace)).items()
                  if isinstance(value, type) and not name.startswith("_"))


def nn_module_classes() -> list[str]:
    """The names of the nn.Module classes torch.nn and its public submodules bind."""
    import pkgutil
    found = set()
    modules = [torch.nn] + [importlib.import_module(m.name) for m in pkgutil.walk_packages(torch.nn.__path__, "torch.nn.")
                            if not any(part.startswith("_") for part in m.name.split("."))]
    for module in modules:
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, torch.nn.Module) and not name.startswith("_"):
                found.add(name)
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT)
    args = parser.parse_args()
    names = sorted(n for n in dir(torch.Tensor) if not (n.startswith("__") and n.endswith("__")))
    table = {"torch": torch.__version__.split("+")[0], "attributes": names, "tensor_types": tensor_types(),
             "namespace_classes": namespace_classes(), "nn_module_classes": nn_module_classes()}
    args.output.write_text(json.dumps(table, indent=0) + "\n", encoding="utf-8")
    print(f"{len(names)} names of torch.Tensor {table['torch']} -> {args.output}")


if __name__ == "__main__":
    main()
