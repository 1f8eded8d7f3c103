"""The examples in docstrings are run: the reading rule, caps, labels and notices are documented by them."""
import doctest
import importlib
import pkgutil

import pytest

import sheetbridge

MODULES = sorted(m.name for m in pkgutil.walk_packages(sheetbridge.__path__, "sheetbridge."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed; run pytest --doctest-modules"
