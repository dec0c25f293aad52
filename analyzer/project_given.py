"""Whether every compiled caller passes a parameter a value that is never None
(call_refs.GivenNotNone), and so whether an arm under `if name is None:` runs in compiled
code (call_refs.ArmTensor).

Answered once the compiled region is known, from the call sites the region's callers map
holds (CallSite.not_none): a call passing the parameter by position or keyword a value that
is never None, or a parameter of the caller's own that is given one in turn. A call that
leaves it at its default, spreads `*args` or `**kwargs`, or passes anything else may pass
None, and so does an entry point's caller (unknown), and any caller while the region is
being reached.
"""
from __future__ import annotations

from tclint.analyzer.call_refs import GivenNotNone


def given_not_none(index, ref: GivenNotNone, active: set) -> bool:
    if index.reached is None or ref.function in index.root_keys or ref in active:
        return False
    sites = index.callers().get(ref.function, ())
    active.add(ref)
    try:
        for _, site in sites:
            if site.spreads:
                return False
            passed = dict(site.not_none).get(passed_key(ref, site))
            if passed is None or isinstance(passed, GivenNotNone) and not given_not_none(index, passed, active):
                return False
        return bool(sites)
    finally:
        active.discard(ref)


def passed_key(ref, site) -> int | str:
    """Where `site` passes the parameter `ref` names (a LeftFalsy or GivenNotNone): its
    position among the positional arguments, or else its name."""
    return ref.position if 0 <= ref.position < len(site.args) else ref.name
