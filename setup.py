"""Package discovery for the tclint.* namespace (all other metadata is in pyproject.toml).

setuptools' own `find` cannot rename folders, and analyzer/ and server/ install as
tclint.analyzer and tclint.server: find their subpackages here and prefix them.
"""
from setuptools import find_packages, setup

ROOTS = {"tclint.analyzer": "analyzer", "tclint.server": "server"}

setup(packages=[
    name
    for prefix, folder in ROOTS.items()
    for name in [prefix, *(f"{prefix}.{sub}" for sub in find_packages(folder))]
])
