"""Settings for a run: the config file found (or given), then command-line overrides."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tclint.analyzer.config import ConfigError, Settings, find_config, load_config, parse_table


def known_codes() -> frozenset[str]:
    from tclint.analyzer.rules import all_rules

    return frozenset(all_rules())


def resolve_settings(anchor: Path, config: str | None = None, select: str | None = None,
                     extend_select: str | None = None, ignore: str | None = None) -> Settings:
    codes = known_codes()
    if config:
        path = Path(config)
        if not path.is_file():
            raise ConfigError(f"{config}: no such config file")
        settings = load_config(path, codes)
    else:
        found = find_config(anchor.resolve() if anchor.exists() else Path.cwd())
        settings = load_config(found, codes) if found else Settings()
    overrides = {}
    if select is not None:
        overrides["select"] = _split(select)
    if extend_select is not None:
        overrides["extend-select"] = _split(extend_select)
    if ignore is not None:
        overrides["ignore"] = _split(ignore)
    if overrides:
        cli = parse_table(overrides, "command line:", None, codes)
        settings = replace(
            settings,
            select=cli.select if select is not None else settings.select,
            extend_select=settings.extend_select + cli.extend_select,
            ignore=settings.ignore + cli.ignore,
        )
    return settings


def _split(value: str) -> list[str]:
    return [v.strip().upper() for v in value.split(",") if v.strip()]
