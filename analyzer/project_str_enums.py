"""Whether a value may be a member of an Enum of str, from where it comes (call_refs.STR_ENUM_REFS).

Dynamo 2.13 traces such a member as a constant but knows none of `str`'s methods on it, nor
`in`, `+` or iterating it (rules str_enum_method, str_enum_operator). Phase 1 records where a
value comes from: `Cls.MEMBER` or `Cls(value)` (StrEnumClass), a parameter (StrEnumArg), what
methods store in `self.name` (StrEnumAttr), what a project function returns (StrEnumReturned).
The project phase answers here, over the class table and the compiled region's call sites.
"""
from __future__ import annotations

from dataclasses import replace

from tclint.analyzer.call_refs import StrEnumArg, StrEnumAttr, StrEnumClass

# The bases that make a class an Enum of str, as class summaries name them
STR_ENUM_BASES = frozenset({"enum.StrEnum"})
STR_BASES = frozenset({"builtins.str", "str"})
ENUM_BASES = frozenset({"enum.Enum"})


def str_enum_class(index, dotted: str, method: str) -> str | None:
    """The class `dotted` names, if an Enum of str (`str` and `enum.Enum` among its bases,
    or `enum.StrEnum`, across files) that defines no `method` of its own."""
    resolved = index.resolve_dotted(dotted)
    if not resolved or resolved[0] != "class":
        return None
    external = set(index.external_bases(resolved[1]))
    if not (external & STR_ENUM_BASES or external & STR_BASES and external & ENUM_BASES):
        return None
    return resolved[1] if index.method(resolved[1], method) is None else None


def member_source(index, ref, active: set) -> tuple[str, str] | None:
    """(who, what it does) that makes `ref` a member of a str Enum with no `ref.method` of its
    own, if anything does."""
    if isinstance(ref, StrEnumClass):
        cls = str_enum_class(index, ref.cls, ref.method)
        return (cls, "is an Enum of str") if cls is not None else None
    if ref in active or index.reached is None:
        return None
    active.add(ref)
    try:
        if isinstance(ref, StrEnumArg):
            return _passed(index, ref, active)
        if isinstance(ref, StrEnumAttr):
            return _stored(index, ref, active)
        for key in index.resolve_ref(ref.call):
            if _any_member(index, index.functions[key][1].returns_members, ref.method, active) is not None:
                return key, "returns a member of a str Enum"
        return None
    finally:
        active.discard(ref)


def _any_member(index, sources: frozenset, method: str, active: set) -> tuple[str, str] | None:
    for source in sorted(sources, key=str):
        found = member_source(index, replace(source, method=method), active)
        if found is not None:
            return found
    return None


def _passed(index, ref: StrEnumArg, active: set) -> tuple[str, str] | None:
    """(the caller, what it passes) for the first compiled caller that passes a member of a
    str Enum as the parameter (CallSite.members), or leaves it at such a default. The caller
    of an entry point, or of a class's `__init__` (objects are mostly built outside compiled
    code), is unknown, and is taken to leave it so."""
    leaves = f"leaves `{ref.name}` at its default, a member of the str Enum `{ref.default}`"
    default = bool(ref.default) and str_enum_class(index, ref.default, ref.method) is not None
    if default and (ref.function in index.root_keys or index.functions[ref.function][1].name == "__init__"):
        return ref.function, leaves
    for caller, site in index.callers().get(ref.function, ()):
        key = ref.position if 0 <= ref.position < len(site.args) else ref.name
        if key == ref.name and key not in site.keywords and not site.spreads and not site.forwards_kwargs:
            if default:
                return caller, leaves
            continue
        for passed, sources in site.members:
            if passed == key and _any_member(index, sources, ref.method, active) is not None:
                return caller, f"passes a member of a str Enum as `{ref.name}`"
    return None


def _stored(index, ref: StrEnumAttr, active: set) -> tuple[str, str] | None:
    """The method that stores a member of a str Enum in `self.name`: of the attribute's class,
    one of its bases or one of its subclasses (any of them may be the instance's class)."""
    resolved = index.resolve_dotted(ref.cls)
    if not (resolved and resolved[0] == "class"):
        return None
    for cls in (*index.mro(resolved[1]), *index.subclasses(resolved[1])):
        for key in index.classes[cls][1].methods.values():
            sources = index.functions[key][1].stores_members.get(ref.name)
            if sources and _any_member(index, sources, ref.method, active) is not None:
                return key, f"stores a member of a str Enum in `self.{ref.name}`"
    return None
