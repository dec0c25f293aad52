"""Qualified names from one file's imports: `F.relu` -> `torch.nn.functional.relu`.

One table per file, filled while the visitor walks the imports; no libcst metadata
providers (they cost more than the parse itself).
"""
from __future__ import annotations

import libcst as cst

BUILTINS = frozenset({
    "print", "open", "input", "breakpoint", "len", "isinstance", "issubclass", "hasattr",
    "getattr", "setattr", "callable", "id", "type", "str", "repr", "format", "int",
    "float", "bool", "complex", "range", "enumerate", "zip", "map", "filter", "sorted",
    "reversed", "min", "max", "sum", "abs", "round", "any", "all", "list", "tuple", "dict",
    "set", "frozenset", "iter", "next", "super", "hash", "divmod", "pow", "object", "slice",
})


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string, or None when the expression is not a plain dotted name."""
    parts: list[str] = []
    while type(node) is cst.Attribute:  # exact types: isinstance against libcst's ABCs is slow
        parts.append(node.attr.value)
        node = node.value
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".") if module else []
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)] if level - 1 <= len(base) else []
    if target:
        base = base + target.split(".")
    return ".".join(base)


class ImportTable:
    def __init__(self, module: str, is_package: bool, star_names: dict[str, dict[str, str]] | None = None):
        """`star_names`: what each module this one star-imports binds here (module -> local
        name -> qualified name), where the project knows it (star_context.py)."""
        self.module = module
        self.is_package = is_package
        self.star_names = star_names or {}
        self.aliases: dict[str, str] = {}

    def add_import(self, node: cst.Import) -> list[tuple[str, str]]:
        """Record the names the import binds; returns them as (local name, qualified name)."""
        bound = []
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                bound.append((alias.asname.name.value, full))
            else:
                top = full.split(".")[0]
                bound.append((top, top))
        self.aliases.update(bound)
        return bound

    def source_module(self, node: cst.ImportFrom) -> str | None:
        """The module a `from ... import` reads, relative imports resolved."""
        target = dotted_name(node.module) if node.module is not None else None
        level = len(node.relative)
        return (resolve_relative(self.module, self.is_package, level, target) if level else target) or None

    def add_import_from(self, node: cst.ImportFrom) -> list[tuple[str, str]]:
        """Record the names the import binds; returns them as (local name, qualified name)."""
        source = self.source_module(node)
        if isinstance(node.names, cst.ImportStar):
            # bound in the statement's place: a later binding of a name wins, as at run time
            self.aliases.update(self.star_names.get(source or "", {}))
            return []  # not re-exports of this module: the project phase reads its star imports
        if not source:
            return []
        bound = []
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            bound.append((local, f"{source}.{alias.name.value}"))
        self.aliases.update(bound)
        return bound

    def local_name(self, qualified: str) -> str | None:
        """The first name bound to `qualified` (`th` after `import torch as th`)."""
        return next((local for local, qual in self.aliases.items() if qual == qualified), None)

    def binds(self, qualified: str) -> bool:
        """Whether some name is bound to `qualified`."""
        return qualified in self.aliases.values()

    def qualify(self, dotted: str) -> str | None:
        """Qualified name of a dotted expression, through the import aliases."""
        head, _, rest = dotted.partition(".")
        base = self.aliases.get(head)
        if base is None:
            if head in BUILTINS and not rest:
                return f"builtins.{head}"
            return None
        return f"{base}.{rest}" if rest else base
