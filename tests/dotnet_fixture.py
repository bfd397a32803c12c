"""A small .NET SDK for the dotnet tests, built by Mono's C# compiler: ``Shapes.dll`` with its compiler
XML docs (``mcs -doc:``), next to the C# source it came from (``tests/data/dotnet/Shapes.cs``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(__file__).parent / "data" / "dotnet" / "Shapes.cs"
MCS = shutil.which("mcs")
needs_mcs = pytest.mark.skipif(
    MCS is None,
    reason="Mono's C# compiler (mcs, Debian package mono-mcs) is not installed: ./run test installs it",
)


def build_sdk(folder: Path) -> Path:
    """``folder/lib/Shapes.dll`` and ``folder/lib/Shapes.xml`` compiled from ``Shapes.cs``; returns folder."""
    assert MCS is not None
    lib = folder / "lib"
    lib.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [MCS, "-target:library", "-nowarn:1591", f"-doc:{lib / 'Shapes.xml'}", f"-out:{lib / 'Shapes.dll'}",
         str(SOURCE)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return folder
