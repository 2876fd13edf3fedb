"""Starting databases that many tests share, built once per process and copied into each test's file.

A fixture that runs the same graphs before every test (two hundred waiting refunds, a paid case and a
waiting one) builds them once through the project's own write path (:func:`agents.runtime.open_store`,
the runs), into a file of its own; each test then gets a copy of that file, made by SQLite's online
backup into the test's own database. The test writes only to its copy, so tests stay as isolated as
if each had run the graphs itself; only the set-up is shared.
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from agents.db import Store
from agents.db_sqlite import SqliteStore
from agents.runtime import load_settings, open_store
from agents.settings import Settings

#: What a template's builder gets: the template's store and settings pointing at it.
Builder = Callable[[Store, Settings], None]

_built: dict[str, Path] = {}
_folder: list[Path] = []


def template(name: str, build: Builder) -> Path:
    """The file ``build`` fills, built on first use in this process (``name`` tells templates apart)."""
    if name not in _built:
        if not _folder:
            _folder.append(Path(tempfile.mkdtemp(prefix="hitl-templates-")))
            atexit.register(shutil.rmtree, _folder[0], ignore_errors=True)  # removed as the process ends
        path = _folder[0] / f"{name}.sqlite"
        store = open_store(path)
        try:
            build(store, load_settings(db_override=str(path), secrets={}))  # the test's environment
        finally:
            store.close()  # the last connection folds the write-ahead log into the file
        _built[name] = path
    return _built[name]


def copy_into(destination: Path | SqliteStore, name: str, build: Builder) -> None:
    """Replaces the content of a SQLite database (a file, or an open store's) with the template's.

    The copy goes through SQLite's backup, page by page under SQLite's own locks, so a store already
    open on the destination (the test's ``store`` fixture) reads the copied content at once.
    """
    source_path = template(name, build)
    with closing(sqlite3.connect(source_path)) as source:
        if isinstance(destination, SqliteStore):
            with destination.lock:
                source.backup(destination.conn)
            return
        with closing(sqlite3.connect(destination)) as target:
            source.backup(target)
