"""The project index's key tables, kept between project phases and patched per edit.

ProjectIndex maps modules, function keys and class keys to the file (and summary) that
claims them first, and method names to their keys in class order. Over a workspace of 2,600
files that is some 100,000 entries to build on every run; an edit replaces one file's
summary, so only that file's entries change. Where the edited file keeps its keys, in order,
its entries are replaced in place (the tables' order, which the callers map follows, stays a
fresh build's); where it adds, removes or reorders keys, that table is built afresh.
"""
from __future__ import annotations

from tclint.analyzer.summary import FileSummary


def key_tables(files: list[FileSummary]) -> tuple[dict, dict, dict, dict]:
    """(modules, functions, classes, methods_by_name) of `files`."""
    return (_module_table(files), _function_table(files), *_class_tables(files))


def _module_table(files: list[FileSummary]) -> dict:
    modules: dict = {}
    for fs in files:
        modules.setdefault(fs.module, fs)
    return modules


def _function_table(files: list[FileSummary]) -> dict:
    """function key -> (file, summary), from the first file to claim the key."""
    functions: dict = {}
    for fs in files:
        for key, fn in fs.functions.items():
            functions.setdefault(key, (fs, fn))
    return functions


def _class_tables(files: list[FileSummary]) -> tuple[dict, dict]:
    """(class key -> (file, summary), method name -> its function keys in class order)."""
    classes: dict = {}
    for fs in files:
        for key, cls in fs.classes.items():
            classes.setdefault(key, (fs, cls))
    methods_by_name: dict[str, list[str]] = {}
    for _, cls in classes.values():
        for name, fn_key in cls.methods.items():
            methods_by_name.setdefault(name, []).append(fn_key)
    return classes, methods_by_name


class KeyTables:
    def __init__(self) -> None:
        self.tables: tuple[dict, dict, dict, dict] | None = None  # modules, functions, classes, methods_by_name

    def of(self, files: list[FileSummary], replaced: list[tuple[FileSummary, FileSummary]], fresh: bool) -> tuple:
        """The tables of `files`: the last call's files with each (old, new) of `replaced`
        swapped in, unless `fresh` (another set or order of files)."""
        if fresh or self.tables is None:
            self.tables = key_tables(files)
            return self.tables
        modules, functions, classes, methods_by_name = self.tables
        new_functions = new_classes = False
        for old, new in replaced:
            if modules.get(new.module) is old:
                modules[new.module] = new
            if list(old.functions) != list(new.functions):
                new_functions = True
            else:
                for key, fn in new.functions.items():
                    if functions[key][0] is old:
                        functions[key] = (new, fn)
            if list(old.classes) != list(new.classes) or _methods(old) != _methods(new):
                new_classes = True
            else:
                for key, cls in new.classes.items():
                    if classes[key][0] is old:
                        classes[key] = (new, cls)
        if new_functions:
            functions = _function_table(files)
        if new_classes:
            classes, methods_by_name = _class_tables(files)
        self.tables = modules, functions, classes, methods_by_name
        return self.tables


def _methods(fs: FileSummary) -> list:
    return [list(cls.methods.items()) for cls in fs.classes.values()]
