"""Suite-wide settings: what a test sees must not depend on which test file ran before it in the same worker.

- A dsim command run in a subprocess prints no compile notice (``DSIM_NO_COMPILE_NOTICE``): in a fresh clone every
  first run compiles, and tests count the lines of stderr. The notice's own tests call :mod:`dsim.compile_notice`.
- Rich reads COLUMNS when a console is built and keeps that width: a command module first imported inside an
  invocation at 80 columns would print at 80 for every later test. Before each test every dsim console reads
  COLUMNS afresh (a test that pins a width pins it after this).
"""

from __future__ import annotations

import os
import sys

import pytest
from rich.console import Console

os.environ["DSIM_NO_COMPILE_NOTICE"] = "1"


@pytest.fixture(autouse=True)
def _consoles_read_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("dsim.") and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, Console) and value._width is not None and value._file is None:
                    monkeypatch.setattr(value, "_width", None)
