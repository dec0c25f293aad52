"""Settings from `[tool.tclint]` in pyproject.toml (or a tclint.toml), validated strictly.

A bad file is a ConfigError naming the file, the key and what is accepted; the CLI turns
it into exit code 2 and the server into a visible message.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from tclint.analyzer import target_version
from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.dynamo_settings import KNOWN_KEYS as DYNAMO_KEYS
from tclint.analyzer.dynamo_settings import DynamoSettings, normalize_function_name
from tclint.analyzer.toml_files import TomlError, read_toml

DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".eggs", "__pycache__",
    "node_modules", "build", "dist", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".tclint_cache",
)
DEFAULT_MAX_FILE_SIZE = 4 * 1024 * 1024


class ConfigError(Exception):
    """A configuration problem the user must fix; the message says where and how."""


@dataclass(frozen=True)
class ConfirmSettings:
    """`[tool.tclint.confirm]`: how `tclint confirm` runs the examples."""

    examples: tuple[str, ...] = ()  # extra example files, relative to the config file
    device: str = "cpu"
    timeout: float = 60.0  # seconds per example case (and per module import)
    memory_mb: int | None = None  # address-space cap per example process (POSIX); None: 3/4 of RAM, 0: none
    python: str | None = None  # interpreter with torch and the project's dependencies
    executor: str = "local"  # "local", "slurm" (through submitit) or "submitit-local"
    slurm: tuple[tuple[str, object], ...] = ()  # submitit parameters, e.g. slurm_partition


_CONFIRM_KEYS = {
    "examples": "list of paths to files that define tclint_examples()",
    "device": '"cpu", "cuda" or "auto"',
    "timeout": "seconds per example case (number)",
    "memory_mb": "address-space cap per example process in MB (integer; 0: none)",
    "python": "path of the interpreter to run the examples with",
    "executor": '"local", "slurm" or "submitit-local"',
    "slurm": "table of submitit parameters (slurm_partition, gpus_per_node, timeout_min, ...)",
}


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    assume_forward_compiled: bool = True
    severity: tuple[tuple[str, Severity], ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    # The lint cache's folder: from `--cache-dir` only. A config file in the repository
    # never chooses it (its `cache-dir` key is ignored): see cache.py.
    cache_dir: str | None = None
    respect_gitignore: bool = True
    dynamo: DynamoSettings = field(default_factory=DynamoSettings)
    # The Python the code runs on (`target-version`); None: worked out by resolve_settings
    # from requires-python, else the one tclint runs on (see target_version.py).
    target_version: tuple[int, int] | None = None
    confirm: ConfirmSettings = field(default_factory=lambda: ConfirmSettings())
    # Where the settings came from (None: defaults); relative paths are relative to it.
    source: Path | None = None

    @property
    def base_dir(self) -> Path:
        return self.source.parent if self.source else Path.cwd()

    @property
    def target_python(self) -> tuple[int, int]:
        """The Python version the linted code runs on, worked out or not."""
        return self.target_version or target_version.running()

    def fingerprint(self) -> str:
        return repr(replace(self, source=None))


_KEYS = {
    "select": "list of rule codes or prefixes",
    "ignore": "list of rule codes or prefixes",
    "extend-select": "list of rule codes or prefixes",
    "per-file-ignores": "table of glob = [codes]",
    "exclude": "list of glob patterns",
    "extend-exclude": "list of glob patterns",
    "roots": 'list of "package.module:Class.method" strings',
    "assume-forward-compiled": "true or false",
    "severity": 'table of code or prefix = "error" | "warning" | "info" | "hint"',
    "max-file-size": "size in bytes (integer)",
    "cache-dir": "ignored: a repository does not choose the cache folder (--cache-dir or TCLINT_CACHE_DIR move it)",
    "respect-gitignore": "true or false",
    "target-version": 'the oldest Python the code runs on, "py38" to "py314"',
    "dynamo": "table with " + ", ".join(DYNAMO_KEYS),
    "confirm": "table with " + ", ".join(_CONFIRM_KEYS),
}


def find_config(start: Path) -> Path | None:
    """The nearest tclint.toml, or pyproject.toml with a [tool.tclint] table, above `start`."""
    start = start if start.is_dir() else start.parent
    for directory in [start, *start.parents]:
        candidate = directory / "tclint.toml"
        if candidate.is_file():
            return candidate
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = read_toml(candidate)
            except TomlError:
                return candidate  # broken: load_config reports it
            if isinstance(data.get("tool"), dict) and "tclint" in data["tool"]:
                return candidate
    return None


def load_config(path: Path, known_codes: frozenset[str]) -> Settings:
    try:
        data = read_toml(path)
    except TomlError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("tclint", {}) if isinstance(data.get("tool"), dict) else {}
        where = f"{path}: [tool.tclint]"
    else:
        table = data.get("tool", {}).get("tclint", data) if isinstance(data.get("tool"), dict) else data
        where = f"{path}:"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    return parse_table(table, where, path, known_codes)


def parse_table(table: dict, where: str, source: Path | None, known_codes: frozenset[str]) -> Settings:
    settings = Settings(source=source)
    changes: dict = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(f"{where} unknown key '{key}' (accepted: {', '.join(sorted(_KEYS))})")
        expected = _KEYS[key]
        if key in ("select", "ignore", "extend-select"):
            changes[key.replace("-", "_")] = tuple(_codes(value, f"{where} '{key}'", expected, known_codes))
        elif key in ("exclude", "extend-exclude", "roots"):
            changes[key.replace("-", "_")] = tuple(_strings(value, f"{where} '{key}'", expected))
            if key in ("exclude", "extend-exclude"):
                _check_patterns(changes[key.replace("-", "_")], f"{where} '{key}'")
            if key == "exclude":
                changes["exclude"] = tuple(DEFAULT_EXCLUDE) + changes["exclude"]
            if key == "roots":
                for root in changes["roots"]:
                    if ":" not in root or not root.split(":", 1)[1]:
                        raise ConfigError(f"{where} 'roots': '{root}' is not of the form {expected}")
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where} '{key}' must be a {expected}")
            changes["per_file_ignores"] = tuple(
                (glob, tuple(_codes(codes, f"{where} '{key}.{glob}'", "list of rule codes", known_codes)))
                for glob, codes in value.items()
            )
        elif key in ("assume-forward-compiled", "respect-gitignore"):
            if not isinstance(value, bool):
                raise ConfigError(f"{where} '{key}' must be {expected}, not {value!r}")
            changes[key.replace("-", "_")] = value
        elif key == "severity":
            if not isinstance(value, dict):
                raise ConfigError(f"{where} 'severity' must be a {expected}")
            pairs = []
            for code, level in value.items():
                _check_code(code, f"{where} 'severity'", known_codes)
                try:
                    pairs.append((code, Severity(level)))
                except ValueError:
                    raise ConfigError(
                        f"{where} 'severity.{code}' = {level!r}: accepted values are error, warning, info, hint"
                    ) from None
            changes["severity"] = tuple(pairs)
        elif key == "max-file-size":
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigError(f"{where} 'max-file-size' must be a positive {expected}, not {value!r}")
            changes["max_file_size"] = value
        elif key == "target-version":
            version = target_version.parse(value)
            if version is None or not (8 <= version[1] <= 14):
                raise ConfigError(f"{where} 'target-version' must be {expected}, not {value!r}")
            changes["target_version"] = version
        elif key == "cache-dir":
            pass  # no longer read: a repository must not choose where tclint reads its cache
        elif key == "dynamo":
            changes["dynamo"] = _dynamo(value, f"{where} 'dynamo'")
        elif key == "confirm":
            changes["confirm"] = _confirm(value, f"{where} 'confirm'")
    return replace(settings, **changes)


def _dynamo(value, where: str) -> DynamoSettings:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table")
    out = {}
    for key, item in value.items():
        expected = DYNAMO_KEYS.get(key)
        if expected is None:
            raise ConfigError(f"{where}: unknown key '{key}' (accepted: {', '.join(DYNAMO_KEYS)})")
        if expected is bool and not isinstance(item, bool):
            raise ConfigError(f"{where}: '{key}' must be true or false, not {item!r}")
        if expected is list:
            item = frozenset(normalize_function_name(v) for v in _strings(item, f"{where}: '{key}'", "list of function names"))
        out[key] = item
    return DynamoSettings(**out)


def _confirm(value, where: str) -> ConfirmSettings:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table")
    out: dict = {}
    for key, item in value.items():
        expected = _CONFIRM_KEYS.get(key)
        if expected is None:
            raise ConfigError(f"{where}: unknown key '{key}' (accepted: {', '.join(_CONFIRM_KEYS)})")
        if key == "examples":
            out[key] = tuple(_strings(item, f"{where}: 'examples'", expected))
        elif key == "device":
            if item not in ("cpu", "cuda", "auto"):
                raise ConfigError(f"{where}: 'device' = {item!r}: accepted values are cpu, cuda, auto")
            out[key] = item
        elif key == "timeout":
            if isinstance(item, bool) or not isinstance(item, (int, float)) or item <= 0:
                raise ConfigError(f"{where}: 'timeout' must be a positive {expected}, not {item!r}")
            out[key] = float(item)
        elif key == "memory_mb":
            if isinstance(item, bool) or not isinstance(item, int) or item < 0:
                raise ConfigError(f"{where}: 'memory_mb' must be a non-negative integer, not {item!r}")
            out[key] = item
        elif key == "python":
            if not isinstance(item, str):
                raise ConfigError(f"{where}: 'python' must be a {expected}")
            out[key] = item
        elif key == "executor":
            if item not in ("local", "slurm", "submitit-local"):
                raise ConfigError(f"{where}: 'executor' = {item!r}: accepted values are {expected}")
            out[key] = item
        elif key == "slurm":
            if not isinstance(item, dict):
                raise ConfigError(f"{where}: 'slurm' must be a {expected}")
            out[key] = tuple(sorted(item.items()))
    return ConfirmSettings(**out)


def _strings(value, where: str, expected: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a {expected}, not {value!r}")
    return value


def _check_patterns(patterns: tuple[str, ...], where: str) -> None:
    import pathspec

    for pattern in patterns:
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except ValueError as exc:
            raise ConfigError(f"{where}: {pattern!r} is not a valid gitignore pattern ({exc})") from None


def _codes(value, where: str, expected: str, known_codes: frozenset[str]) -> list[str]:
    codes = _strings(value, where, expected)
    for code in codes:
        _check_code(code, where, known_codes)
    return codes


def _check_code(code: str, where: str, known_codes: frozenset[str]) -> None:
    if code == "ALL" or any(k.startswith(code) for k in known_codes):
        return
    raise ConfigError(f"{where}: '{code}' matches no rule (codes look like TC101; prefixes like TC1 and ALL work)")
