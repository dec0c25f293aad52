"""Which values are `torch.optim` optimizers (or learning-rate schedulers), known from where
they come from, never from their names (TC217).

A value is one when it is built from one of `torch.optim`'s classes (here, or stored in a
local, a module-level name or `self.attr` that was), or is a parameter annotated with one.
An un-annotated parameter is one when its callers pass one (call_refs.OptimizerArg): each
call site records which of its arguments are (CallSite.optimizers: True, or the caller's own
parameter passed on, as its OptimizerArg), and the project phase reads them. A compiled
function's callers are the compiled region's (all of them must pass one); an entry point's
run outside compiled code, as do those of a method storing the parameter in `self.attr`
(`__init__`), and of those only the calls passing an optimizer are recorded (with the calls
passing functions: ProjectIndex.sites_passing_functions), so one is enough.
"""
from __future__ import annotations

import libcst as cst

from tclint.analyzer.call_refs import OptimizerArg

# torch.optim's optimizer and scheduler classes (torch 2.13's `__all__`), under the package or
# the module defining them (`torch.optim.adam.Adam`); its functions and AveragedModel (an
# nn.Module) are none
_OPTIMIZERS = frozenset({
    "ASGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "Muon", "NAdam", "Optimizer",
    "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam"})
_SCHEDULERS = frozenset({
    "ChainedScheduler", "ConstantLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts", "CyclicLR", "ExponentialLR",
    "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR", "MultiplicativeLR", "OneCycleLR", "PolynomialLR",
    "ReduceLROnPlateau", "SequentialLR", "StepLR", "SWALR"})
_OPTIONAL = frozenset({"typing.Optional", "typing.Union"})


def optimizer_class(qual: str | None) -> bool:
    """A class of `torch.optim`: an optimizer or a learning-rate scheduler."""
    if not qual or not qual.startswith("torch.optim."):
        return False
    name = qual.rpartition(".")[2]
    return name in _OPTIMIZERS or name in _SCHEDULERS


def scheduler_class(qual: str) -> bool:
    return qual.rpartition(".")[2] in _SCHEDULERS


def annotated_optimizer(facts, annotation: cst.BaseExpression) -> str | None:
    """The `torch.optim` class an annotation names: `Optimizer`, `Optional[Adam]`, `Adam | None`."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        for side in (annotation.left, annotation.right):
            if not (isinstance(side, cst.Name) and side.value == "None"):
                found = annotated_optimizer(facts, side)
                if found:
                    return found
        return None
    if isinstance(annotation, cst.Subscript) and facts.qualname(annotation.value) in _OPTIONAL:
        for el in annotation.slice:
            found = isinstance(el.slice, cst.Index) and annotated_optimizer(facts, el.slice.value)
            if found:
                return found
        return None
    qual = facts.qualname(annotation)
    return qual if optimizer_class(qual) else None


def built_optimizer(facts, value: cst.BaseExpression, stored_attrs=()) -> str | None:
    """The `torch.optim` class `value` was built from: a call of it, a local, module-level
    name or `self.attr` bound to one (`stored_attrs`: "class key.attr" names that methods
    of this file store one in), or a parameter annotated with one."""
    fn = facts.function
    built = None
    if isinstance(value, cst.Call):
        built = facts.qualname(value.func)
    elif isinstance(value, cst.Name):
        built = (fn.instance_classes.get(value.value) if fn else None) or (
            facts.module_instances.get(value.value) if fn is None or fn.lookup(value.value) is None else None)
        if built is None and fn is not None and value.value in fn.own_params:
            built = _parameter_annotation(facts, fn, value.value)
    elif isinstance(value, cst.Attribute) and fn is not None and fn.class_scope is not None \
            and facts.is_self(value.value):
        attr = value.attr.value
        built = fn.class_scope.built_from.get(attr)
        if built is None and f"{fn.class_scope.key}.{attr}" in stored_attrs:
            return "torch.optim.Optimizer"
    return built if optimizer_class(built) else None


def fallback_built(facts, value: cst.BaseExpression) -> cst.Call | None:
    """The call in `p if p else Cls(...)`, `Cls(...) if p is None else p` or `p or Cls(...)`
    where `p` is a parameter of the function: what it builds when the caller gives nothing is
    what the parameter stands for."""
    if isinstance(value, cst.IfExp):
        arms = (value.body, value.orelse)
    elif isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
        arms = (value.left, value.right)
    else:
        return None
    calls = [a for a in arms if isinstance(a, cst.Call)]
    if len(calls) == 1 and any(facts.own_param(a) is not None for a in arms if a is not calls[0]):
        return calls[0]
    return None


def _parameter_annotation(facts, fn, name: str) -> str | None:
    params = fn.node.params
    for p in (*params.posonly_params, *params.params, *params.kwonly_params):
        if p.name.value == name and p.annotation is not None:
            return annotated_optimizer(facts, p.annotation.annotation)
    return None


def passed_optimizers(facts, node: cst.Call) -> tuple:
    """(position or keyword, True or the caller's OptimizerArg) for each argument of `node`
    that is an optimizer, or a parameter of the caller's own passed on unchanged."""
    out = []
    for i, a in enumerate(node.args):
        if a.star:
            break
        key = a.keyword.value if a.keyword is not None else i
        if built_optimizer(facts, a.value):
            out.append((key, True))
        else:
            param = facts.own_param(a.value)
            if param is not None:
                out.append((key, OptimizerArg(param.function, param.position, param.name)))
    return tuple(out)


def optimizer_passed(index, ref: OptimizerArg, active: set) -> tuple[str, str] | None:
    """(a caller, what it passes) if the callers pass the parameter `ref` names an optimizer
    (see the module's docstring), None otherwise."""
    if ref in active or index.reached is None:
        return None
    active.add(ref)
    try:
        if ref.function in index.root_keys or ref.function not in index.reached:
            for site in index.sites_passing_functions().get(ref.function, ()):
                if _passes(index, ref, site, active):
                    return ref.function, f"is called with a `torch.optim` optimizer as `{ref.name}`"
            return None
        sites = index.callers().get(ref.function, ())
        if not sites or not all(not site.spreads and _passes(index, ref, site, active) for _, site in sites):
            return None
        return sites[0][0], f"passes a `torch.optim` optimizer as `{ref.name}`"
    finally:
        active.discard(ref)


def _passes(index, ref: OptimizerArg, site, active: set) -> bool:
    key = ref.position if 0 <= ref.position < len(site.args) else ref.name
    for passed, what in site.optimizers:
        if passed == key:
            return what is True or optimizer_passed(index, what, active) is not None
    return False
