"""Which files a run lints, and the module names they get."""
from __future__ import annotations

import subprocess
from pathlib import Path

from tclint.analyzer.config import Settings
from tclint.analyzer.discovery import discover, module_name


def touch(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def names(files, root: Path) -> list[str]:
    return sorted(f.path.relative_to(root.resolve()).as_posix() for f in files)


def test_gitignore_exclude_and_default_folders(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    touch(tmp_path / ".gitignore", "generated/\n*_pb2.py\n")
    touch(tmp_path / "src" / "model.py")
    touch(tmp_path / "src" / "model_pb2.py")
    touch(tmp_path / "generated" / "x.py")
    touch(tmp_path / ".venv" / "lib" / "y.py")
    touch(tmp_path / "third_party" / "z.py")
    touch(tmp_path / "notes.txt")
    settings = Settings(extend_exclude=("third_party/",), source=tmp_path / "tclint.toml")
    files, problems = discover([tmp_path], settings)
    assert names(files, tmp_path) == ["src/model.py"] and problems == []


def test_named_file_is_always_linted_and_missing_path_reported(tmp_path):
    touch(tmp_path / ".gitignore", "ignored.py\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    target = touch(tmp_path / "ignored.py")
    files, problems = discover([target, tmp_path / "missing.py"], Settings())
    assert [f.path.name for f in files] == ["ignored.py"]
    assert problems and "missing.py" in problems[0]


def test_module_names_follow_init_files(tmp_path):
    touch(tmp_path / "pkg" / "__init__.py")
    touch(tmp_path / "pkg" / "sub" / "__init__.py")
    mod = touch(tmp_path / "pkg" / "sub" / "layers.py")
    assert module_name(mod) == ("pkg.sub.layers", False)
    assert module_name(tmp_path / "pkg" / "sub" / "__init__.py") == ("pkg.sub", True)
    assert module_name(touch(tmp_path / "script.py")) == ("script", False)


def test_symlink_loop_is_not_followed(tmp_path):
    touch(tmp_path / "a.py")
    (tmp_path / "loop").symlink_to(tmp_path)
    files, _ = discover([tmp_path], Settings())
    assert [f.path.name for f in files] == ["a.py"]
