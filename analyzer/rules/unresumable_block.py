from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class UnresumableBlock(Rule):
    """
    ## What it does
    Flags a `try` block, or a `with` block under a context manager of your own (a class
    with `__enter__`, a `@contextmanager` function), in a compiled function, when a graph
    break happens inside it: in the block itself or in a function it calls. For a `try`,
    its body counts, and its `else` under a `finally`: a break in a handler happens only if
    the body raises, and Dynamo resumes after one in `finally` (or in `else` without one). Found in the
    project phase, once tclint knows which functions break.

    ## Why is this bad?
    After a graph break, Dynamo normally compiles what it has, runs the breaking call
    eagerly and resumes tracing right after it. Inside such a block it cannot resume.
    It compiles the function only up to the block (`explain()` lists "step_unsupported"
    on its line) and runs all the rest of the function eagerly, however long it is.
    Context managers torch knows (`torch.no_grad()`, `torch.autocast(...)`) do not have
    this problem. Inside a `for` loop or a `with` statement Dynamo cannot stop either (the
    iterator, the context's exit, sit on its stack), so for a block inside one it compiles
    only up to the outermost such statement, and the finding is on that line. With fewer
    than two tensor operations before that point, Dynamo skips the whole function instead,
    and only the break inside is reported.

    ## Example
    ```python
    def forward(self, x):
        x = self.proj(x).relu()
        with self.tracking():          # a @contextmanager of the model
            if x.sum() > 0:            # data-dependent branch
                x = x * 2
        return self.head(x)            # runs eagerly
    ```

    ## Use instead
    Fix the break inside the block, or move the block out of the compiled function (or
    the break out of the block): the rest of the function then compiles again.
    """

    code = "TC228"
    name = "unresumable-block"
    message = "a graph break inside a block Dynamo cannot resume in: the rest of the function runs eagerly"
    compile_reason = hazards.STEP_UNSUPPORTED

    VALID = [
        Example("""
            import contextlib
            import torch
            @contextlib.contextmanager
            def tracking():
                yield
            @torch.compile
            def f(x):
                x = x * 2
                y = x.sin()
                try:
                    x = x + 1
                finally:
                    y = y - 1
                with tracking():
                    x = x.cos()
                return x + y
        """, call="f(torch.ones(3))"),
        # a break in a handler happens only if the body raises; one in `else`/`finally` Dynamo resumes after
        Example("""
            import torch
            @torch.compile
            def f(a, b):
                a = a * 2
                b = b.sin()
                try:
                    c = torch.linalg.solve(a, b)
                except RuntimeError:
                    print("solve failed")
                    c = b
                return c
        """, call="f(torch.eye(3), torch.ones(3, 2))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(xs, x):
                x = x * 2
                y = x.sin()
                for chunk in xs:
                    try:
                        y = y + chunk.cos()
                        print("step")
                    except RuntimeError:
                        pass
                return x + y
        """, call="f([torch.ones(3), torch.ones(3)], torch.ones(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                x = x * 2
                y = x.sin()
                try:
                    print("step")
                    x = x + 1
                finally:
                    y = y - 1
                return x + y
        """, call="f(torch.ones(3))"),
        Example("""
            import contextlib
            import torch
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.proj = torch.nn.Linear(4, 4)
                @contextlib.contextmanager
                def tracking(self):
                    yield
                def forward(self, x):
                    x = self.proj(x).relu()
                    with self.tracking():
                        while x.sum() > 0:
                            x = x - 1
                    return x
            net = torch.compile(Net())
        """, call="net(torch.ones(2, 4))"),
        Example("""
            import torch
            class Timer:
                def __enter__(self):
                    return self
                def __exit__(self, *exc):
                    return False
            def log_step(x):
                print("step", x.shape)
                return x
            @torch.compile
            def f(x):
                x = x * 2
                y = x.sin()
                with Timer():
                    x = log_step(x)
                return x + y
        """, call="f(torch.ones(3))"),
    ]
