"""tclint's analyzer: finds torch.compile graph breaks and recompilations from the source.

The public API (used by the CLI, the language server and confirmation) lives in
:mod:`tclint.analyzer.api`; this package import stays cheap so ``tclint --version`` is fast.
"""
from tclint.analyzer.version import __version__

__all__ = ["__version__"]
