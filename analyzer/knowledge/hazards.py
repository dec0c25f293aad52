"""The graph-break types tclint predicts, with Dynamo's wording (torch 2.13 registry)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GraphBreak:
    gb_id: str
    gb_type: str


# Not in the registry: the reason explain() gives for a graph compiled only up to the last
# point Dynamo could resume from, when a break happens where it cannot.
STEP_UNSUPPORTED = "step_unsupported"

SKIPPED = GraphBreak("GB0007", "Attempted to call function marked as skipped")
INLINE_SKIPPED = GraphBreak("GB0008", "Attempted to inline function marked as skipped")
RNN_MODULE = GraphBreak("GB0014", "Attempted to wrap RNN, GRU, or LSTM")
# Dynamo refuses to wrap an instance of these (`isinstance`, so subclasses too); nn.RNNBase alone it wraps.
RNN_MODULE_CLASSES = frozenset({"torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN"})
GRAPH_BREAK_CALL = GraphBreak("GB0025", "Call to `torch._dynamo.graph_break()`")
DATA_DEPENDENT_OP = GraphBreak("GB0033", "Data dependent operator")
DYNAMIC_SHAPE_OP = GraphBreak("GB0036", "Dynamic shape operator")
BUILTIN_OP = GraphBreak("GB0059", "Failed to trace builtin operator")
DISABLED_CALL = GraphBreak("GB0098", "Skip calling `torch.compiler.disable()`d function")
DISABLED_INLINE = GraphBreak("GB0099", "Skip inlining `torch.compiler.disable()`d function")
TOLIST = GraphBreak("GB0109", "Tensor.tolist() with non-integer tensor")
BACKWARD = GraphBreak("GB0123", "Unsupported Tensor.backward() call")
UNHANDLED_METHOD_ARGS = GraphBreak("GB0117", "Unhandled args for method")
ITEM = GraphBreak("GB0124", "Unsupported Tensor.item() call with capture_scalar_outputs=False")
CONTEXT_MANAGER = GraphBreak("GB0142", "Unsupported context manager")
METHOD_CALL = GraphBreak("GB0156", "Unsupported method call")
BRANCHING = GraphBreak("GB0170", "Data-dependent branching")
SORT_KEYS = GraphBreak("GB0207", "sort with non-constant keys")
BUILTIN_TENSOR_ARGS = GraphBreak("GB0213", "unimplemented builtin op on tensor arguments")
ONE_HOT = GraphBreak("GB0246", "Attempted to use `torch.nn.functional.one_hot` with data-dependent output shape")
PARAMETER_CTOR = GraphBreak("GB0264", "Attempted to use `torch.nn.Parameter()` constructor with Dynamo")
LOGGER_METHOD = GraphBreak("GB0291", "logging.Logger method not supported for non-export cases")
DEEPCOPY = GraphBreak("GB4198", "Attempted to copy.deepcopy a tensor")
PYTHON_TYPE = GraphBreak("GB4841", "Unsupported python_type() call")
GRAD_LEAK = GraphBreak("GB8985", "requires_grad_() intermediate leaked as output")
AUTOGRAD_GRAD = GraphBreak("GB9186", "using `torch.autograd.grad` with `torch._dynamo.config.trace_autograd_ops=False`")
DATA_MUTATION = GraphBreak("GB0056", "Failed to mutate tensor data attribute")
REQUIRES_GRAD_INPUT = GraphBreak("GB0125", "Unsupported Tensor.requires_grad_() call")
TENSOR_REPR = GraphBreak("GB0569", "repr() on tensor")
REQUIRES_GRAD_SETATTR = GraphBreak("GB0206", "setattr() on Tensor.requires_grad")
OBJECT_ARGUMENT = GraphBreak("GB0055", "Failed to convert args/kwargs to proxy")
NDARRAY_INPUT = GraphBreak("GB0185", "failed to convert numpy.ndarray to Tensor")
NDARRAY_ATTRIBUTE = GraphBreak("GB0157", "Unsupported ndarray attribute access")
NON_TENSOR_RESULT = GraphBreak("GB0208", "torch.* op returned non-Tensor")
NUMPY_UNSUPPORTED = GraphBreak("GB0294", "attempted to trace numpy function unsupported by PyTorch")
OPAQUE_OBJECT = GraphBreak("GB0363", "An opaque object was created in the middle of the program.")
CREATE_REQUIRES_GRAD = GraphBreak("GB0225", "Attempted to use tensor creation function with requires_grad=True")
RETAIN_GRAD = GraphBreak("GB0108", "Tensor.retain_grad() with AOTDispatcher")
INPLACE_VIEW_OF_INPUT = GraphBreak("GB0148", "Unsupported function call (delayed)")
OPTIONAL_KEYS_TYPEDDICT = GraphBreak("GB0257", "TypedDict with optional keys")
RECONSTRUCTION_FAILURE = GraphBreak("GB0092", "Reconstruction failure")
MISSING_TP_ITERNEXT = GraphBreak("GB4347", "Missing tp_iternext")
UNINITIALIZED_MODULE = GraphBreak("GB0119", "Uninitialized nn.Module")
OBSERVED_EXCEPTION = GraphBreak("GB0088", "Observed exception")
MISSING_SQ_CONTAINS = GraphBreak("GB4411", "missing sq_contains")
MISSING_TP_ITER = GraphBreak("GB0811", "missing tp_iter")
CLASS_DEFINITION = GraphBreak("GB8977", "Invalid call to __build_class__")
GENERATOR_RECONSTRUCTION = GraphBreak("GB8335", "Generator reconstruction with mutations")
