"""docs/configuration.md documents every key the config accepts, and every command-line flag."""
from __future__ import annotations

import re
from pathlib import Path

from tclint.analyzer import config
from tclint.analyzer.cli import _check_parser
from tclint.analyzer.dynamo_settings import KNOWN_KEYS

DOC = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")


def documented_keys(section: str) -> set[str]:
    body = DOC.split(f"## `{section}`", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_-]+)` \|", body, re.MULTILINE))


def test_every_config_key_is_documented():
    top = set(config._KEYS) - {"dynamo", "confirm"}  # tables, documented as sections of their own
    assert documented_keys("[tool.tclint]") == top
    assert documented_keys("[tool.tclint.dynamo]") == set(KNOWN_KEYS)
    assert documented_keys("[tool.tclint.confirm]") == set(config._CONFIRM_KEYS)


def test_every_flag_is_documented():
    flags = {opt for action in _check_parser()._actions for opt in action.option_strings if opt.startswith("--")}
    missing = {f for f in flags - {"--help", "--version"} if f"`{f}`" not in DOC}
    assert not missing
