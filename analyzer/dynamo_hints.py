"""The Dynamo setting that decides a rule's verdict, said the way a user sets it.

Rules say which settings make their pattern traceable (`Rule.enabled`); flipping each
setting once per rule finds the one that matters, so the hint never drifts from the rule.
"""
from __future__ import annotations

import functools
from dataclasses import replace

from tclint.analyzer.dynamo_settings import DynamoSettings

_FLAGS = ("capture_scalar_outputs", "capture_dynamic_output_shape_ops")
_REORDERABLE = ("print",)  # builtins Dynamo can move out of the graph when listed


@functools.lru_cache(maxsize=None)
def setting_hint(rule) -> str | None:
    """"set `torch._dynamo.config.capture_scalar_outputs = True` to trace it", or None."""
    default = DynamoSettings()
    if not rule.enabled(default):
        return None
    for flag in _FLAGS:
        if not rule.enabled(replace(default, **{flag: True})):
            return f"set `torch._dynamo.config.{flag} = True` to trace it"
    for name in _REORDERABLE:
        if not rule.enabled(replace(default, reorderable_logging_functions=frozenset({f"builtins.{name}"}))):
            return f"`torch._dynamo.config.reorderable_logging_functions.add({name})` runs it after the graph instead"
    return None
