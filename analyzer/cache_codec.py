"""Summaries and findings as JSON, for the cache: data in, data out, nothing else.

A dataclass or named tuple becomes an object tagged with its class name, and only the
classes listed in `_CLASSES` can come back, built from their fields (as [name, value]
pairs, so that every JSON object is a tagged one); tuples, frozensets and dicts are
tagged so that they come back as they were. Anything else (a type not
listed, a field it does not have, another schema) is a DecodeError: a cache miss.
"""
from __future__ import annotations

import dataclasses
import json
from enum import Enum

from tclint.analyzer.call_refs import RECORDS as CALL_REFS
from tclint.analyzer.diagnostic import ChainStep, Diagnostic, Fix, Severity, Span, TextEdit
from tclint.analyzer.knowledge.hazards import GraphBreak
from tclint.analyzer.summary import (Arm, Block, CallSite, Candidate, ClassSummary, CompileSite, Comprehension,
                                     FileSummary, FunctionSummary, Held, ReturnedCall, StoredDefault)
from tclint.analyzer.suppressions import Suppression

_CLASSES = {cls.__name__: cls for cls in (
    ChainStep, Diagnostic, Fix, Severity, Span, TextEdit, GraphBreak,
    Arm, Block, CallSite, Candidate, ClassSummary, CompileSite, Comprehension, FileSummary, FunctionSummary, Held,
    ReturnedCall, StoredDefault, Suppression, *CALL_REFS,
)}
_TOP = {"summary": FileSummary, "run": list, "context": list, "confirm": dict}  # confirm: a runner's JSON report


class EncodeError(Exception):
    """The value holds something the cache cannot store as plain data."""


class DecodeError(Exception):
    """The entry is not one this version wrote for this key."""


def dumps(value, kind: str, key: str, schema: int) -> bytes:
    try:
        doc = {"schema": schema, "kind": kind, "key": key, "value": _encode(value)}
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    except (TypeError, ValueError, RecursionError) as exc:
        raise EncodeError(str(exc)) from None


def loads(body: bytes, kind: str, key: str, schema: int):
    try:
        doc = json.loads(body, object_hook=_decode_object)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        raise DecodeError(str(exc)) from None
    if not (isinstance(doc, dict) and doc.get("schema") == schema and doc.get("kind") == kind
            and doc.get("key") == key and isinstance(doc.get("value"), _TOP[kind])):
        raise DecodeError("another schema, kind or key")
    value = doc["value"]
    if kind == "run" and not all(isinstance(d, Diagnostic) for d in value):
        raise DecodeError("a run holds findings only")
    if kind == "context" and not all(isinstance(p, str) for p in value):
        raise DecodeError("a run's context is paths")
    return value


def _encode(value):
    if value is None or isinstance(value, (bool, int, float, str)) and not isinstance(value, Enum):
        return value
    if isinstance(value, Enum):
        return {"__t": type(value).__name__, "v": value.value}
    if isinstance(value, Span):
        return {"__t": "Span", "v": list(value)}
    if dataclasses.is_dataclass(value) and type(value).__name__ in _CLASSES:
        fields = [[f.name, _encode(getattr(value, f.name))] for f in dataclasses.fields(value)]
        return {"__t": type(value).__name__, "f": fields}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"__tuple": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"__frozenset": sorted((_encode(v) for v in value), key=repr)}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"__dict": [[k, _encode(v)] for k, v in value.items()]}
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _decode_object(obj: dict):
    if "__t" in obj:
        cls = _CLASSES[obj["__t"]]
        if cls is Span:
            return Span(*obj["v"])
        if issubclass(cls, Enum):
            return cls(obj["v"])
        return cls(**{name: v for name, v in obj["f"]})
    if "__tuple" in obj:
        return tuple(obj["__tuple"])
    if "__frozenset" in obj:
        return frozenset(obj["__frozenset"])
    if "__dict" in obj:
        return {k: v for k, v in obj["__dict"]}
    if "schema" in obj:  # the envelope
        return obj
    raise KeyError("an untagged object")
