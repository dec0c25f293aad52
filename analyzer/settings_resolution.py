"""Settings for a run: the config file found (or given), then command-line overrides."""
from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from pathlib import Path

from tclint.analyzer import target_version
from tclint.analyzer.config import ConfigError, Settings, find_config, load_config, parse_table


def known_codes() -> frozenset[str]:
    from tclint.analyzer.rules import all_rules

    return frozenset(all_rules())


@dataclass(frozen=True)
class Overrides:
    """Command-line flags that stand for config keys. Lists hold the flag's values as given
    (each may be a comma list; a repeated flag adds up); None: the flag was not given."""

    select: list[str] | None = None
    extend_select: list[str] | None = None
    ignore: list[str] | None = None
    exclude: list[str] | None = None
    extend_exclude: list[str] | None = None
    respect_gitignore: bool | None = None
    cache_dir: str | None = None


def resolve_settings(anchor: Path, config: str | None = None, overrides: Overrides = Overrides()) -> Settings:
    codes = known_codes()
    if config:
        path = Path(config)
        if not path.is_file():
            raise ConfigError(f"{config}: no such config file")
        settings = load_config(path, codes)
    else:
        found = find_config(anchor.resolve() if anchor.exists() else Path.cwd())
        settings = load_config(found, codes) if found else Settings()
    if settings.target_version is None:
        floor = target_version.requires_python_floor(settings.source or (anchor.resolve() if anchor.exists() else Path.cwd()))
        settings = replace(settings, target_version=floor)
    table: dict = {}
    for key in ("select", "extend_select", "ignore"):
        values = getattr(overrides, key)
        if values is not None:
            table[key.replace("_", "-")] = [c.upper() for c in _split(values)]
    for key in ("exclude", "extend_exclude"):
        values = getattr(overrides, key)
        if values is not None:
            table[key.replace("_", "-")] = _split(values)
    if overrides.respect_gitignore is not None:
        table["respect-gitignore"] = overrides.respect_gitignore
    if not table and overrides.cache_dir is None:
        return settings
    # The same checks as the config file's, so `--select TC1O2` is refused as `select` would be.
    cli = parse_table(table, "command line:", None, codes)
    changes: dict = {}
    if "select" in table:
        changes["select"] = cli.select
    if "exclude" in table:
        changes["exclude"] = cli.exclude
    if "respect-gitignore" in table:
        changes["respect_gitignore"] = cli.respect_gitignore
    if overrides.cache_dir is not None:
        changes["cache_dir"] = str(Path(overrides.cache_dir).resolve())  # relative to where tclint runs
    return replace(
        settings, **changes,
        extend_select=settings.extend_select + cli.extend_select,
        ignore=settings.ignore + cli.ignore,
        extend_exclude=settings.extend_exclude + cli.extend_exclude,
    )


def _split(values: list[str]) -> list[str]:
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def describe_settings(settings: Settings, anchor: Path) -> str:
    """`--show-settings`: where the settings come from and every value, spelled as in the config."""
    lines = [
        f"Resolved settings for: {anchor.resolve()}",
        f"Settings path: {settings.source.resolve() if settings.source else '(none: defaults)'}",
        "",
    ]
    for f in fields(settings):
        if f.name == "source":
            continue
        value = getattr(settings, f.name)
        key = f.name.replace("_", "-")
        if f.name == "cache_dir":  # the folder in use, chosen or not (as ruff shows it)
            from tclint.analyzer.cache_folders import cache_folder

            value = str(cache_folder(settings))
        if f.name == "target_version":  # the one in use, chosen or not
            value = target_version.spelled(settings.target_python)
        if f.name in ("dynamo", "confirm"):
            for sub in fields(value):  # these tables keep Python's spelling
                lines.append(f"{key}.{sub.name} = {_show(getattr(value, sub.name), sub.name in _TABLES)}")
        else:
            lines.append(f"{key} = {_show(value, f.name in _TABLES)}")
    return "\n".join(lines) + "\n"


_TABLES = ("per_file_ignores", "severity", "slurm")  # held as (key, value) pairs


def _show(value, table: bool = False) -> str:
    if table:
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_show(v)}" for k, v in value) + "}"
    if isinstance(value, (frozenset, set)):
        value = sorted(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "(not set)"
    if isinstance(value, str):  # also Severity, a str enum
        return json.dumps(getattr(value, "value", value))
    return str(value)
