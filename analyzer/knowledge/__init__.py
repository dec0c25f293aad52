"""Torch API knowledge as data: which calls make tensors, which values stay static under
Dynamo, which callables Dynamo cannot trace. Rules read these tables; adding a known
pattern is adding a row (and an example to the rule that uses it)."""
