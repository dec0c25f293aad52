"""The editor's `tclint` settings, and how they combine with `[tool.tclint]`.

Client settings (section "tclint" of workspace/configuration, or the payload of
workspace/didChangeConfiguration, or initializationOptions) win over the config file:
a client `select` starts the selection afresh (the file's select, extend-select and
ignore are dropped); without it, `extendSelect` and `ignore` add to the file's; client
`severity` entries come first, so they win over the file's for the same prefix.
A bad config file or bad client value is reported, and the defaults are used instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

DEFAULT_DEBOUNCE_MS = 10  # edits within this many ms share one run; superseded runs are dropped anyway


@dataclass(frozen=True)
class ClientSettings:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    severity: tuple[tuple[str, str], ...] = ()
    lint_on_change: bool = True
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    config_file: str | None = None
    # Ask the client to watch *.py and config files (client/registerCapability). Off by
    # default: editors' extensions usually send didChangeWatchedFiles by themselves
    # (vscode-languageclient's synchronize.fileEvents), and some clients that claim
    # dynamic registration do not answer it.
    watch_files: bool = False
    # `confirm`: running the project's examples under Dynamo (tclint.confirmFile / confirmWorkspace).
    # Off unless the client says so: it runs the user's code (VS Code: trusted workspaces only).
    confirm_enabled: bool = False
    confirm_python: str | None = None
    confirm_device: str | None = None  # cpu | cuda | auto; None: [tool.tclint.confirm] device
    confirm_timeout: float | None = None  # seconds per case; None: [tool.tclint.confirm] timeout
    confirm_on_save: bool = False
    confirm_show_refuted: bool = True
    problems: tuple[str, ...] = field(default=(), compare=False)


def _codes(value: Any, key: str, problems: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return tuple(v.strip().upper() for v in value.split(",") if v.strip())
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(v.strip().upper() for v in value if v.strip())
    problems.append(f"tclint.{key} must be a list of rule codes, not {value!r}")
    return None


def unwrap(raw: Any) -> Any:
    """Accept {"tclint": {...}}, {"settings": {...}} or the section itself."""
    if isinstance(raw, dict):
        for key in ("tclint", "settings"):
            if isinstance(raw.get(key), dict):
                return unwrap(raw[key])
    return raw


def parse_client_settings(raw: Any) -> ClientSettings:
    """Lenient parsing: unknown keys are ignored, bad values are dropped and reported."""
    raw = unwrap(raw)
    if not isinstance(raw, dict):
        return ClientSettings()
    problems: list[str] = []
    severity: list[tuple[str, str]] = []
    sev = raw.get("severity")
    if isinstance(sev, dict):
        for code, level in sev.items():
            if isinstance(code, str) and isinstance(level, str):
                severity.append((code.strip().upper(), level.strip().lower()))
            else:
                problems.append(f"tclint.severity.{code} must be a string")
    elif sev is not None:
        problems.append(f"tclint.severity must be a table of code = level, not {sev!r}")
    lint_on_change = raw.get("lintOnChange", raw.get("lint_on_change", True))
    if not isinstance(lint_on_change, bool):
        problems.append(f"tclint.lintOnChange must be true or false, not {lint_on_change!r}")
        lint_on_change = True
    debounce = raw.get("debounceMs", raw.get("debounce_ms", DEFAULT_DEBOUNCE_MS))
    if not isinstance(debounce, (int, float)) or isinstance(debounce, bool) or debounce < 0:
        problems.append(f"tclint.debounceMs must be a number of milliseconds, not {debounce!r}")
        debounce = DEFAULT_DEBOUNCE_MS
    config_file = raw.get("configFile", raw.get("config"))
    if config_file is not None and not isinstance(config_file, str):
        problems.append(f"tclint.configFile must be a path, not {config_file!r}")
        config_file = None
    watch_files = raw.get("watchFiles", False)
    if not isinstance(watch_files, bool):
        problems.append(f"tclint.watchFiles must be true or false, not {watch_files!r}")
        watch_files = False
    confirm = _confirm_settings(raw, problems)
    return ClientSettings(
        **confirm,
        watch_files=watch_files,
        select=_codes(raw.get("select"), "select", problems),
        extend_select=_codes(raw.get("extendSelect", raw.get("extend_select")), "extendSelect", problems),
        ignore=_codes(raw.get("ignore"), "ignore", problems),
        severity=tuple(severity),
        lint_on_change=lint_on_change,
        debounce_ms=int(debounce),
        config_file=config_file or None,
        problems=tuple(problems),
    )


CONFIRM_DEVICES = ("cpu", "cuda", "auto")


def _confirm_settings(raw: dict, problems: list[str]) -> dict[str, Any]:
    """`confirm: {enabled, python, device, timeout, onSave, showRefuted}` (or `confirm.enabled` keys)."""
    table = raw.get("confirm")
    if table is None:
        table = {}
    elif not isinstance(table, dict):
        problems.append(f"tclint.confirm must be a table, not {table!r}")
        table = {}
    table = dict(table)
    for k, v in raw.items():
        if isinstance(k, str) and k.startswith("confirm.") and k[8:] not in table:
            table[k[8:]] = v
    out: dict[str, Any] = {}

    def flag(name: str, attr: str, default: bool) -> None:
        value = table.get(name, default)
        if not isinstance(value, bool):
            problems.append(f"tclint.confirm.{name} must be true or false, not {value!r}")
            value = default
        out[attr] = value

    flag("enabled", "confirm_enabled", False)
    flag("onSave", "confirm_on_save", False)
    flag("showRefuted", "confirm_show_refuted", True)
    python = table.get("python")
    if python is not None and not isinstance(python, str):
        problems.append(f"tclint.confirm.python must be a path, not {python!r}")
        python = None
    out["confirm_python"] = python or None
    device = table.get("device")
    if device is not None and device not in CONFIRM_DEVICES:
        problems.append(f"tclint.confirm.device must be one of {', '.join(CONFIRM_DEVICES)}, not {device!r}")
        device = None
    out["confirm_device"] = device or None
    timeout = table.get("timeout")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0):
        problems.append(f"tclint.confirm.timeout must be a number of seconds, not {timeout!r}")
        timeout = None
    out["confirm_timeout"] = float(timeout) if timeout else None
    return out


def resolve(anchor: Path, client: ClientSettings):
    """(Settings, errors) for files under `anchor`. Imports the analyzer: call it in the worker."""
    from tclint.analyzer.config import ConfigError, Settings
    from tclint.analyzer.settings_resolution import resolve_settings

    errors: list[str] = list(client.problems)
    try:
        base = resolve_settings(anchor, config=client.config_file)
    except ConfigError as exc:
        errors.append(str(exc))
        base = Settings()
    try:
        settings, problems = apply_client(base, client)
    except ConfigError as exc:  # not expected: apply_client drops what it cannot use
        errors.append(str(exc))
        return base, errors
    return settings, errors + problems


def apply_client(base, client: ClientSettings):
    """(Settings, problems): the editor's settings over `base`; unusable values are dropped."""
    from tclint.analyzer.config import parse_table
    from tclint.analyzer.settings_resolution import known_codes

    known = known_codes()
    where = "editor settings 'tclint':"
    problems: list[str] = []

    def usable(codes, key):
        if codes is None:
            return None
        good = []
        for code in codes:
            if code == "ALL" or any(k.startswith(code) for k in known):
                good.append(code)
            else:
                problems.append(f"{where} '{key}': '{code}' matches no rule "
                                "(codes look like TC101; prefixes like TC1 and ALL work)")
        return good

    select = usable(client.select, "select")
    extend_select = usable(client.extend_select, "extendSelect")
    ignore = usable(client.ignore, "ignore")
    severity = {}
    for code, level in client.severity:
        if usable([code], "severity") and level in ("error", "warning", "info", "hint"):
            severity[code] = level
        elif level not in ("error", "warning", "info", "hint"):
            problems.append(f"{where} 'severity.{code}' = {level!r}: accepted values are error, warning, info, hint")

    table: dict[str, Any] = {}
    if select is not None:
        table["select"] = select
    if extend_select is not None:
        table["extend-select"] = extend_select
    if ignore is not None:
        table["ignore"] = ignore
    if severity:
        table["severity"] = severity
    if not table:
        return base, problems
    parsed = parse_table(table, where, None, known)
    if select is not None:
        # Like a later layer in ruff: the editor's `select` starts the selection afresh,
        # so the file's select / extend-select / ignore no longer apply.
        return replace(base, select=parsed.select, extend_select=parsed.extend_select,
                       ignore=parsed.ignore, severity=parsed.severity + base.severity), problems
    return replace(
        base,
        extend_select=base.extend_select + parsed.extend_select,
        ignore=base.ignore + parsed.ignore,
        severity=parsed.severity + base.severity,
    ), problems
