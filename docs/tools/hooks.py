"""MkDocs hooks (mkdocs.yml `hooks:`): the generated pages of docs/tools/kiroku_docs.py are
added to the site at build time, so the references cannot drift from the code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

HERE = Path(__file__).resolve().parent
for path in (str(HERE), str(HERE.parents[1])):  # kiroku_docs, and the project's packages
    if path not in sys.path:
        sys.path.insert(0, path)

import kiroku_docs  # noqa: E402


def on_files(files: Files, config: Any) -> Files:
    for src_uri, content in kiroku_docs.pages().items():
        files.append(File.generated(config, src_uri, content=content))
    return files
