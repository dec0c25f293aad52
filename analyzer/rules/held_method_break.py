from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class HeldMethodBreak(Rule):
    """
    ## What it does
    Flags the first graph break in a compiled function while it holds a bound method of an
    object it built itself (`closure = sf.closure` after `sf = ScalarFunction(...)`, read
    again later), or at a call that breaks and is passed one (`m = Subproblem(x, sf.closure)`).
    Found in the project phase, once tclint knows which functions break.

    ## Why is this bad?
    To resume after a break, Dynamo rebuilds what the rest of the frame still needs. A bound
    method of an object built inside the compiled code has no source to rebuild it from
    ("Reconstruction failure"): Dynamo compiles the function only up to the break and runs
    the rest of it eagerly, so later breaks in it never happen (the functions it calls are
    still compiled as frames of their own). A method of an object passed in, or a closure,
    is rebuilt fine.

    ## Example
    ```python
    def minimize(fun, x):
        sf = ScalarFunction(fun)
        closure = sf.closure
        f = closure(x)
        print(f)               # breaks: `closure` is read below
        return closure(x - 1)
    ```

    ## Use instead
    Fix the break, build the object outside the compiled code and pass it in, or call the
    method on the object where it is needed (`sf.closure(x)`) instead of holding it.
    """

    code = "TC249"
    name = "held-bound-method"
    message = "a bound method of an object built in this compiled function is held across this graph break"
    graph_break = hazards.RECONSTRUCTION_FAILURE

    VALID = [
        Example("""
            import torch
            class Objective:
                def closure(self, x):
                    return x * 2
            @torch.compile
            def f(x):
                sf = Objective()
                closure = sf.closure
                x = closure(x)
                return closure(x + 1)
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import torch
            class Objective:
                def closure(self, x):
                    return x * 2
            @torch.compile
            def f(x):
                sf = Objective()
                closure = sf.closure
                y = closure(x)
                print("step")
                if y.sum() > 0:
                    y = y + 1
                return closure(y)
        """, call="f(torch.ones(2))"),
        Example("""
            import torch
            class Objective:
                def closure(self, x):
                    return x * 2
            class Model:
                def __init__(self, x, closure):
                    print("built")
                    self.value = closure(x)
            @torch.compile
            def f(x):
                sf = Objective()
                m = Model(x, sf.closure)
                return m.value + 1
        """, call="f(torch.ones(2))"),
    ]
