"""The kinds of value tensor_facts tells apart, as small ints: here, so that the modules
tensor_facts itself imports (lambda_values) name the same ones."""

UNKNOWN = 0
STATIC = 1  # a Python value Dynamo specializes on: shapes, dtypes, config, constants
TENSOR = 2
BOOL_TENSOR = 3  # a tensor known to hold booleans (a mask)
MODULE = 4  # an nn.Module instance
INPUT = 5  # an un-annotated input of a compiled function: almost always a tensor
# A NumPy value computed in compiled code: Dynamo traces NumPy calls as tensor ops, so its
# truth is data (branching on it breaks) while sizes built from it trace fine.
NDARRAY = 6
