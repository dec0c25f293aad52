import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import LOGGER_METHODS, LOGGING
from tclint.analyzer.loggers import LOGGER_BUILDERS
from tclint.analyzer.names import dotted_name
from tclint.analyzer.rules._support import UntraceableCalls, compile_guard_fix
from tclint.analyzer.rules.base import Example, Rule

# Receivers that conventionally hold a logging.Logger.
_LOGGER_NAMES = frozenset({"log", "logger", "_log", "_logger", "LOG", "LOGGER", "_LOG", "_LOGGER"})
_STDLIB_LOGGING = "logging."


class LoggingCall(Rule):
    """
    ## What it does
    Flags logging inside a compiled region: the `logging` module's functions
    (`logging.info(...)`), methods of a `logging.Logger` (`logger.debug(...)`, where the
    logger comes from `logging.getLogger`, from a function that returns what
    `logging.getLogger` gives, such as transformers' and diffusers' `logging.get_logger`
    (read from the package or the installed library), or is named `log`/`logger` and
    bound to nothing known to be otherwise), loguru's `logger` and `warnings.warn(...)`.

    ## Why is this bad?
    Dynamo cannot trace the logging machinery: it ends the graph at the call, logs
    eagerly and starts a new graph. Logger methods break even when the level is
    disabled (`logger.debug` with INFO level still breaks).

    ## Example
    ```python
    logger = logging.getLogger(__name__)

    def forward(self, x):
        logger.debug("forward %s", x.shape)
        return self.net(x)
    ```

    ## Use instead
    Log outside the compiled call, or guard it with
    `if not torch.compiler.is_compiling():`. Module-level functions such as
    `logging.info` can be added to `torch._dynamo.config.reorderable_logging_functions`.
    """

    code = "TC206"
    name = "logging-call"
    message = "logging is not traceable; the graph breaks here"
    graph_break = hazards.LOGGER_METHOD
    also_predicts = (hazards.PYTHON_TYPE, hazards.SKIPPED)
    scope = "module"  # also reads `logger = logging.getLogger(...)` at module level

    VALID = [
        Example("""
            import torch
            class Recorder:
                def __init__(self):
                    self.seen = []
                def warning(self, message):
                    self.seen.append(message)
            def get_logger(name):
                return Recorder()
            logger = get_logger(__name__)
            @torch.compile
            def f(x):
                logger.warning("scaling")
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import logging
            import torch
            logger = logging.getLogger(__name__)
            @torch.compile
            def f(x):
                return x * 2
            def run(x):
                y = f(x)
                logger.info("done %s", tuple(y.shape))
                return y
        """, call="run(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import logging
            import torch
            def get_logger(name):
                logging.basicConfig()
                return logging.getLogger(name)
            events = get_logger(__name__)
            @torch.compile
            def f(x):
                events.info("scaling")
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import logging
            import torch
            logger = logging.getLogger(__name__)
            @torch.compile
            def f(x):
                logger.debug("forward %s", x.shape)
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import logging
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.log = logging.getLogger("m")
                def forward(self, x):
                    self.log.warning("forward")
                    return x * 2
        """, call="torch.compile(M())(torch.randn(3))"),
        Example("""
            import logging
            import torch
            @torch.compile
            def f(x):
                logging.info("forward")
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import warnings
            import torch
            @torch.compile
            def f(x):
                warnings.warn("deprecated")
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            from loguru import logger
            @torch.compile
            def f(x):
                logger.warning(f"{x.shape[0]} vectors")
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import functools
            import logging
            import torch
            @functools.lru_cache(None)
            def warning_once(self, *args):  # as transformers adds it to Logger
                self.warning(*args)
            logging.Logger.warning_once = warning_once
            logger = logging.getLogger(__name__)
            @torch.compile
            def f(x):
                logger.warning_once("global attention on CLS")
                return x * 2
        """, call="f(torch.randn(3))"),
    ]

    file_state = ("_module_loggers", "_attr_loggers", "_local_loggers")

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._statement_fix: dict[int, cst.Expr] = {}  # call id -> its statement
        self._calls = UntraceableCalls(LOGGING)
        # what a name holds where bound to a logger or to a function's result that may be one:
        # True, or the condition (LoggerReturned) that the function returns a logger
        self._module_loggers: dict[str, object] = {}
        self._attr_loggers: dict[str, object] = {}  # self.<attr> -> as above
        self._local_loggers: dict[tuple[str, str], object] = {}  # (function key, local name) -> as above

    def _made_logger(self, value: cst.BaseExpression, named: bool = False):
        """True for `logging.getLogger(...)`; for a call of a project's or a library's function
        (`logging.get_logger(__name__)` of transformers), the condition that it returns a
        logger (`named`: bound to a logger's usual name); None otherwise."""
        if not isinstance(value, cst.Call):
            return None
        qual = self.facts.qualname(value.func)
        if qual in LOGGER_BUILDERS:
            return True
        if qual and self.facts.is_project_name(qual) and not qual.startswith(_STDLIB_LOGGING):
            return frozenset({refs.LoggerReturned(refs.Named(qual), named)})
        return None

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            target = t.target
            if isinstance(target, cst.Name):
                made = self._made_logger(node.value, target.value in _LOGGER_NAMES)
                if made is None:
                    continue
                fn = self.facts.function
                if fn is None:
                    self._module_loggers[target.value] = made
                else:
                    self._local_loggers[(fn.key, target.value)] = made
            elif isinstance(target, cst.Attribute) and self.facts.is_self(target.value):
                made = self._made_logger(node.value, target.attr.value in _LOGGER_NAMES)
                if made is not None:
                    self._attr_loggers[target.attr.value] = made

    def _is_logger(self, receiver: cst.BaseExpression):
        """True, a condition (the function whose result it holds returns a logger), or False."""
        made = self._made_logger(receiver)
        if made is not None:
            return made
        if isinstance(receiver, cst.Name):
            name = receiver.value
            fn = self.facts.function
            if fn is not None and (fn.key, name) in self._local_loggers:
                return self._local_loggers[(fn.key, name)]
            local = fn.lookup(name) if fn is not None else None
            if local is not None and (self.facts.value(receiver).known_tensor or name not in _LOGGER_NAMES):
                return False  # a local variable of some other kind
            if local is None and name in self._module_loggers:
                return self._module_loggers[name]
            return name in _LOGGER_NAMES
        if isinstance(receiver, cst.Attribute) and self.facts.is_self(receiver.value):
            attr = receiver.attr.value
            return self._attr_loggers.get(attr, attr in _LOGGER_NAMES)
        return False

    def visit_Expr(self, node: cst.Expr) -> None:
        # A logging call that is a whole statement can be guarded away (the quick fix).
        if isinstance(node.value, cst.Call):
            self._statement_fix[id(node.value)] = node

    def report(self, node, message=None, **kwargs) -> None:
        statement = self._statement_fix.get(id(node))
        if statement is not None and "fix" not in kwargs:
            kwargs["fix"] = compile_guard_fix(self.facts, statement)
        super().report(node, message, **kwargs)

    def visit_Call(self, node: cst.Call) -> None:
        if self.facts.function is None:
            return
        hit = self._calls.match(self.facts, node)
        if hit is not None:
            self.report(node, self._calls.message(*hit), graph_break=hit[1].graph_break)
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in LOGGER_METHODS:
            if self.facts.qualname(func) is not None:
                return  # logging.<fn> not in the table, or some imported module's function
            held = self._is_logger(func.value)
            if held:
                who = dotted_name(func.value) or "the logger"
                self.report(node, f"`{who}.{func.attr.value}()` is a logging.Logger method, which Dynamo "
                                  f"cannot trace; the graph breaks here even if the level is disabled",
                            condition=None if held is True else held)
