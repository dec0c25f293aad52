"""Dynamo configuration that changes what breaks, from `[tool.tclint.dynamo]` and the code."""
from __future__ import annotations

from dataclasses import dataclass, field

KNOWN_KEYS = {
    "capture_scalar_outputs": bool,
    "capture_dynamic_output_shape_ops": bool,
    "reorderable_logging_functions": list,
}


@dataclass(frozen=True)
class DynamoSettings:
    capture_scalar_outputs: bool = False
    capture_dynamic_output_shape_ops: bool = False
    # qualified names, e.g. "builtins.print", "logging.info"
    reorderable_logging_functions: frozenset[str] = field(default_factory=frozenset)

    def merged(self, found_in_code: dict[str, object]) -> DynamoSettings:
        """Settings after applying `torch._dynamo.config.X = ...` found in linted files."""
        values = {
            "capture_scalar_outputs": self.capture_scalar_outputs,
            "capture_dynamic_output_shape_ops": self.capture_dynamic_output_shape_ops,
            "reorderable_logging_functions": set(self.reorderable_logging_functions),
        }
        for key, value in found_in_code.items():
            if key in ("capture_scalar_outputs", "capture_dynamic_output_shape_ops") and isinstance(value, bool):
                values[key] = value
            elif key == "reorderable_logging_functions" and isinstance(value, list):
                values[key].update(normalize_function_name(v) for v in value)
        values["reorderable_logging_functions"] = frozenset(values["reorderable_logging_functions"])
        return DynamoSettings(**values)


def normalize_function_name(name: str) -> str:
    return f"builtins.{name}" if "." not in name else name
