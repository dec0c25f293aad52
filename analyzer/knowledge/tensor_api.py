"""What Dynamo sees as a tensor and what it sees as a static Python value."""
import json
from pathlib import Path

# Every name a tensor has (tools/list_tensor_attributes.py writes the table from torch):
# code that reads another attribute of a value holds something else.
_TABLE = json.loads(Path(__file__).with_name("tensor_attributes.json").read_text(encoding="utf-8"))
TENSOR_ATTRIBUTES = frozenset(_TABLE["attributes"])
# The classes of TENSOR_NAMESPACES that build a tensor when called (`torch.FloatTensor(3)`),
# from the same table; their other classes build Python objects (`torch.Size`, `torch.Generator`).
TENSOR_TYPES = frozenset(_TABLE["tensor_types"])
# Every class those namespaces bind (`torch.Size`, `torch.dtype`: a spelling says nothing), and
# the names of torch.nn's nn.Module classes (torch.nn's `PackedSequence`, `SDPBackend` are
# none), from the same table.
NAMESPACE_CLASSES = frozenset(_TABLE["namespace_classes"])
NN_MODULE_CLASSES = frozenset(_TABLE["nn_module_classes"])

# Attributes of a tensor that are static under Dynamo (guarded, not traced as data).
STATIC_TENSOR_ATTRS = frozenset({
    "shape", "dtype", "device", "ndim", "requires_grad", "is_cuda", "is_cpu", "is_mps",
    "is_meta", "is_sparse", "is_quantized", "is_leaf", "layout", "names", "is_nested",
    "is_mkldnn", "is_xpu", "itemsize", "nbytes", "grad_fn", "__class__",
})

# Attributes of a tensor that are tensors themselves.
TENSOR_TENSOR_ATTRS = frozenset({"T", "mT", "H", "mH", "real", "imag", "grad", "data", "values", "indices"})

# Tensor methods whose result is a static Python value under Dynamo.
STATIC_TENSOR_METHODS = frozenset({
    "size", "dim", "ndimension", "numel", "nelement", "stride", "storage_offset",
    "is_contiguous", "is_floating_point", "is_complex", "is_signed", "element_size",
    "get_device", "is_pinned", "is_shared", "data_ptr", "untyped_storage",
    "is_inference", "has_names", "is_set_to",
    # these two leave the graph (rules flag them); their result is a Python value
    "item", "tolist",
})

# Methods that exist on tensors but not on Python's builtin types: calling one on a
# value of unknown type is strong evidence the value is a tensor (or an ndarray, which
# Dynamo traces as a tensor too).
TENSORISH_METHODS = frozenset({
    "abs", "absolute", "acos", "add", "addmm", "all", "amax", "amin", "angle", "any",
    "argmax", "argmin", "argsort", "asin", "atan", "atan2", "baddbmm", "bernoulli",
    "bfloat16", "bmm", "bool", "byte", "ceil", "char", "chunk", "clamp", "clamp_min",
    "clamp_max", "clip", "clone", "contiguous", "cos", "cosh", "cpu", "cuda",
    "cummax", "cummin", "cumprod", "cumsum", "detach", "diag", "diagonal", "diff",
    "div", "dot", "double", "eq", "erf", "exp", "expand", "expand_as", "expm1",
    "flatten", "flip", "float", "floor", "fmod", "gather", "ge", "gt", "half", "index_add",
    "index_fill", "index_select", "int", "isfinite", "isinf", "isnan", "kthvalue", "le",
    "lerp", "log", "log10", "log1p", "log2", "log_softmax", "logical_and", "logical_not",
    "logical_or", "logsumexp", "long", "lt", "masked_fill", "masked_scatter", "matmul",
    "max", "mean", "median", "min", "mm", "mul", "mv", "nan_to_num", "nanmean",
    "nansum", "narrow", "ne", "neg", "new_empty", "new_full", "new_ones", "new_tensor",
    "new_zeros", "norm", "normal_", "numpy", "permute", "pow", "prod", "reciprocal",
    "relu", "remainder", "renorm", "repeat", "reshape", "reshape_as", "roll", "rot90",
    "round", "rsqrt", "scatter", "scatter_add", "select", "short", "sigmoid", "sign",
    "sin", "sinh", "softmax", "sqrt", "square", "squeeze", "std", "sub", "sum", "t",
    "tan", "tanh", "topk", "transpose", "tril", "triu", "trunc", "type_as", "unbind",
    "unflatten", "unfold", "uniform_", "unsqueeze", "var", "view", "view_as", "where",
    "zero_", "fill_", "masked_fill_", "clamp_", "mul_", "add_", "div_", "sub_", "exp_",
    "nonzero", "unique", "masked_select", "bincount", "repeat_interleave", "tolist", "item",
    "requires_grad_", "backward", "sort", "logit", "sum_to_size", "argwhere", "count_nonzero",
})

# torch namespaces whose public functions return tensors.
TENSOR_NAMESPACES = frozenset({
    "torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special",
})

# Functions in those namespaces that return Python values (or context managers).
NON_TENSOR_FUNCTIONS = frozenset({
    "torch.is_tensor", "torch.is_storage", "torch.is_floating_point", "torch.is_complex",
    "torch.is_nonzero", "torch.numel", "torch.get_default_dtype", "torch.get_default_device",
    "torch.is_grad_enabled", "torch.is_inference_mode_enabled", "torch.no_grad",
    "torch.enable_grad", "torch.set_grad_enabled", "torch.inference_mode", "torch.autocast",
    "torch.device", "torch.dtype", "torch.Size", "torch.finfo", "torch.iinfo",
    "torch.Generator", "torch.compile", "torch.manual_seed", "torch.seed",
    "torch.initial_seed", "torch.equal", "torch.allclose", "torch.are_deterministic_algorithms_enabled",
    "torch.is_autocast_enabled", "torch.get_autocast_gpu_dtype", "torch.promote_types",
    "torch.result_type", "torch.can_cast", "torch.typename", "torch.get_num_threads",
    "torch.set_printoptions", "torch.save", "torch.load", "torch.sym_int", "torch.sym_float",
    "torch.sym_max", "torch.sym_min", "torch.sym_not", "torch.broadcast_shapes",
})

# Module-level constants of the standard library that are Python numbers.
PYTHON_CONSTANTS = frozenset({"math.inf", "math.nan", "math.pi", "math.e", "math.tau"})

# Classes in torch.nn whose instances are tensors, not modules.
NN_TENSOR_CLASSES = frozenset({"Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer"})

# Constructors of torch.nn modules that own parameters: building one inside a compiled
# region creates an nn.Parameter, which Dynamo cannot trace.
PARAMETERIZED_MODULES = frozenset({
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
    "ConvTranspose2d", "ConvTranspose3d", "Embedding", "EmbeddingBag", "LayerNorm",
    "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "RMSNorm", "MultiheadAttention", "LSTM", "GRU",
    "RNN", "LSTMCell", "GRUCell", "RNNCell", "PReLU", "Transformer", "TransformerEncoderLayer",
    "TransformerDecoderLayer", "Parameter",
})

# Tensor methods and torch functions whose result holds booleans (a mask).
BOOL_METHODS = frozenset({
    "bool", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "logical_not", "logical_and",
    "logical_or", "logical_xor", "eq", "ne", "lt", "le", "gt", "ge", "greater", "less",
    "greater_equal", "less_equal", "not_equal", "isclose", "signbit", "bernoulli",
})
BOOL_FUNCTIONS = frozenset(f"torch.{name}" for name in BOOL_METHODS - {"bool", "bernoulli"})

# Tensor methods (and torch functions) that return a (values, indices) named tuple of
# torch.return_types: always, or given a `dim` (`x.max()` is a tensor, `x.max(y)` the
# elementwise maximum). The values keep the input's dtype: those of a mask are a mask.
VALUES_INDICES_OPS = frozenset({"sort", "cummax", "cummin", "mode", "topk", "kthvalue"})
VALUES_INDICES_WITH_DIM = frozenset({"max", "min", "median", "nanmedian"})

# NumPy functions that answer with a Python value (a type, a flag, a dtype), not an array:
# Dynamo evaluates them while tracing. Every other NumPy call gives a traced array.
NUMPY_PYTHON_VALUES = frozenset({
    "numpy.issubdtype", "numpy.isscalar", "numpy.iscomplexobj", "numpy.isrealobj", "numpy.dtype",
    "numpy.iinfo", "numpy.finfo", "numpy.can_cast", "numpy.result_type", "numpy.promote_types",
    "numpy.shape", "numpy.size", "numpy.get_printoptions", "numpy.errstate",
    "numpy.seterr", "numpy.geterr", "numpy.set_printoptions",
})
