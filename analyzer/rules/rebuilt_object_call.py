from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class RebuiltObjectCall(Rule):
    """
    ## What it does
    Flags a call, in a compiled region, of a method that breaks the graph (itself or in
    anything it calls) on an object the same function built: `s = Stepper(); s.run(x)`,
    `Stepper().run(x)`, `make_stepper(3).run(x)` where `make_stepper` returns a new
    instance, or with the class picked at run time, `SOLVERS[method](...)`. Found in the
    project phase, once tclint knows which functions break.

    ## Why is this bad?
    After a break inside an inlined call, Dynamo resumes the caller by rebuilding what its
    frame holds. An object built inside the compiled code has no source to rebuild it from
    ("Reconstruction failure"), so the call itself breaks too, and the whole call runs
    eagerly. An object passed in, one from module level, or an nn.Module is rebuilt fine.

    ## Example
    ```python
    def forward(self, x):
        stepper = Stepper(self.k)
        return stepper.run(x)   # run() prints: a second break here
    ```

    ## Use instead
    Fix the break inside the method, or build the object outside the compiled code and
    pass it in.
    """

    code = "TC225"
    name = "rebuilt-object-call"
    message = "a method that breaks the graph, called on an object built in this compiled function"
    graph_break = hazards.RECONSTRUCTION_FAILURE

    VALID = [
        Example("""
            import torch
            class Stepper:
                def __init__(self, k=2):
                    self.k = k
                def run(self, x):
                    return x * self.k
            @torch.compile
            def f(x):
                s = Stepper()
                return s.run(x) + Stepper(3).run(x)
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import torch
            class Stepper:
                def __init__(self, k=2):
                    self.k = k
                def run(self, x):
                    print("step")
                    return x * self.k
            @torch.compile
            def f(x):
                s = Stepper()
                return s.run(x) + Stepper(3).run(x)
        """, call="f(torch.ones(2))"),
        Example("""
            import torch
            class Euler:
                def __init__(self, k=2):
                    self.k = k
                def integrate(self, x):
                    print("step")
                    return x * self.k
            SOLVERS = {"euler": Euler}
            @torch.compile
            def f(x, method="euler"):
                solver_fn = SOLVERS[method]
                solver = solver_fn(k=3)
                return solver.integrate(x)
        """, call="f(torch.ones(2))"),
        Example("""
            import torch
            class Stepper:
                def __init__(self, k=2):
                    self.k = k
                def run(self, x):
                    print("step")
                    return x * self.k
            def make_stepper(k):
                return Stepper(k)
            @torch.compile
            def f(x):
                return make_stepper(3).run(x) + 1
        """, call="f(torch.ones(2))"),
    ]
