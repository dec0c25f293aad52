"""What a rule is: one small class with its code, its docs and its examples.

A rule subclasses :class:`Rule`, sets the class attributes, and defines ``visit_<Node>``
(and ``leave_<Node>``) methods like a libcst visitor; every rule runs in the same single
pass over a file. ``self.facts`` answers tensor/static questions for the current scope and
``self.report`` records a finding. VALID and INVALID examples are part of the rule: the
test suite lints each one, and runs each runnable one under Dynamo to check the verdict.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import libcst as cst

from tclint.analyzer.diagnostic import Fix, Severity
from tclint.analyzer.knowledge.hazards import GraphBreak

if TYPE_CHECKING:
    from tclint.analyzer.dynamo_settings import DynamoSettings
    from tclint.analyzer.file_analysis import FileAnalyzer


@dataclass(frozen=True)
class Example:
    """A snippet for a rule's docs and tests.

    ``call`` is a Python expression evaluated after the snippet runs; with it, the test
    suite runs the snippet under Dynamo and checks that it breaks (INVALID) or not (VALID).
    """

    code: str
    call: str | None = None

    @property
    def source(self) -> str:
        return textwrap.dedent(self.code).strip("\n") + "\n"


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]
    graph_break: ClassVar[GraphBreak | None] = None
    # Other Gb_types the same pattern produces in some spellings (checked by the tests).
    also_predicts: ClassVar[tuple[GraphBreak, ...]] = ()
    # For a finding that is no registry entry but a reason Dynamo gives for compiling a graph
    # early (hazards.STEP_UNSUPPORTED): its findings' gb_type, and what the tests expect.
    compile_reason: ClassVar[str | None] = None
    severity: ClassVar[Severity] = Severity.WARNING
    # "function": visits only nodes inside function bodies; "module": every node.
    scope: ClassVar[str] = "function"
    # False: a finding counts only inside a compiled region. True: wherever it is found
    # (recompilation hazards sit in the code that calls compiled functions).
    report_anywhere: ClassVar[bool] = False
    VALID: ClassVar[list[Example]] = []
    INVALID: ClassVar[list[Example]] = []
    # Attributes (sets or dicts) holding what the rule learnt from earlier top-level
    # statements of the file, such as the name of a module-level logger: the incremental
    # summarizer carries them from one statement to the next.
    file_state: ClassVar[tuple[str, ...]] = ()

    def __init__(self, analyzer: FileAnalyzer):
        self.analyzer = analyzer
        self.facts = analyzer.facts

    @classmethod
    def enabled(cls, dynamo: DynamoSettings) -> bool:
        """False when Dynamo's configuration makes the pattern traceable."""
        return True

    @classmethod
    def runs_on(cls, python: tuple[int, int]) -> bool:
        """False when the pattern does not break on that Python (the project's target-version)."""
        return True

    def report(
        self,
        node: cst.CSTNode,
        message: str | None = None,
        *,
        condition: frozenset | None = None,
        fix: Fix | None = None,
        graph_break: GraphBreak | None = None,
        ends_frame: bool = False,
    ) -> None:
        """Record a finding at `node`; `graph_break` names the break when it is not the rule's default.
        `ends_frame`: Dynamo cannot resume after this break, so the rest of the function runs
        eagerly (as after a break inside a loop body)."""
        self.analyzer.add_candidate(self.code, node, message or self.message, condition, fix,
                                    graph_break=graph_break, region_only=not self.report_anywhere,
                                    ends_frame=ends_frame)

    @classmethod
    def doc(cls) -> str:
        return textwrap.dedent(cls.__doc__ or "").strip()
