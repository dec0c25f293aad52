"""What the project index works out about values (does a function return a tensor, does
a class store one, is a call an "am I compiling" predicate) does not depend on which question a run asked first.
A search cut short by a cycle finds a provisional False; kept, it answered later questions
wrongly, and answers kept from one run to the next (analyzer/project_conditions.py) could
not equal a fresh run's."""
from __future__ import annotations

import pytest

from tclint.analyzer.api import summarize_source
from tclint.analyzer.regions import ProjectIndex

# a and b return each other's result; only a also returns t's, a tensor
CYCLE = '''
import torch

def t(x):
    return torch.ones(3)

def a(x, flag):
    if flag:
        return b(x, flag)
    return t(x)

def b(x, flag):
    return a(x, flag)
'''


@pytest.mark.parametrize("order", [("m.a", "m.b"), ("m.b", "m.a")])
def test_a_function_returning_a_tensor_through_a_cycle_does_so_whichever_is_asked_first(order):
    index = ProjectIndex([summarize_source(CYCLE, "/p/m.py", "m")])
    assert [index.returns_tensor(key) for key in order] == [True, True]

