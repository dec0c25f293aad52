import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import LOGGER_METHODS, LOGGING
from tclint.analyzer.names import dotted_name
from tclint.analyzer.rules._support import UntraceableCalls, compile_guard_fix
from tclint.analyzer.rules.base import Example, Rule

# Receivers that conventionally hold a logging.Logger.
_LOGGER_NAMES = frozenset({"log", "logger", "_log", "_logger", "LOG", "LOGGER", "_LOG", "_LOGGER"})
_GET_LOGGER = frozenset({"logging.getLogger", "logging.Logger"})


class LoggingCall(Rule):
    """
    ## What it does
    Flags logging inside a compiled region: the `logging` module's functions
    (`logging.info(...)`), methods of a `logging.Logger` (`logger.debug(...)`, where the
    logger comes from `logging.getLogger` or is named `log`/`logger`), loguru's
    `logger` and `warnings.warn(...)`.

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
        self._module_loggers: set[str] = set()
        self._attr_loggers: set[str] = set()  # self.<attr> assigned a logger
        self._local_loggers: set[tuple[str, str]] = set()  # (function key, local name)

    def _is_get_logger(self, value: cst.BaseExpression) -> bool:
        if not isinstance(value, cst.Call):
            return False
        qual = self.facts.qualname(value.func) or ""
        # also the `logging.get_logger` of transformers and diffusers
        return qual in _GET_LOGGER or qual.endswith("logging.get_logger")

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._is_get_logger(node.value):
            return
        for t in node.targets:
            target = t.target
            if isinstance(target, cst.Name):
                fn = self.facts.function
                if fn is None:
                    self._module_loggers.add(target.value)
                else:
                    self._local_loggers.add((fn.key, target.value))
            elif isinstance(target, cst.Attribute) and self.facts.is_self(target.value):
                self._attr_loggers.add(target.attr.value)

    def _is_logger(self, receiver: cst.BaseExpression) -> bool:
        if self._is_get_logger(receiver):
            return True
        if isinstance(receiver, cst.Name):
            name = receiver.value
            fn = self.facts.function
            if fn is not None and (fn.key, name) in self._local_loggers:
                return True
            local = fn.lookup(name) if fn is not None else None
            if local is not None and (self.facts.value(receiver).known_tensor or name not in _LOGGER_NAMES):
                return False  # a local variable of some other kind
            # the usual names first: what the file binds is read (and an edit of it re-analyzes
            # the reader, analyzer/incremental.py) only when the name alone does not tell
            return name in _LOGGER_NAMES or name in self._module_loggers
        if isinstance(receiver, cst.Attribute) and self.facts.is_self(receiver.value):
            attr = receiver.attr.value
            return attr in _LOGGER_NAMES or attr in self._attr_loggers
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
            if self._is_logger(func.value):
                who = dotted_name(func.value) or "the logger"
                self.report(node, f"`{who}.{func.attr.value}()` is a logging.Logger method, which Dynamo "
                                  f"cannot trace; the graph breaks here even if the level is disabled")
