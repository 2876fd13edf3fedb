"""The Timeline's CSV download opens in a spreadsheet as written: UTF-8 with a byte-order mark; the CLI writes none."""

from __future__ import annotations

import codecs
import csv
import io

from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from agents import runs
from agents.cli import main
from dashboard.downloads import csv_download


def test_the_csv_download_starts_with_the_utf8_mark_and_reads_back(app, store, settings, monkeypatch):
    sent: list[tuple[bytes, str | None]] = []
    original = MemoryMediaFileStorage.load_and_get_id

    def record(self, path_or_data, mimetype, kind, filename=None):  # what the button hands the browser
        sent.append((path_or_data, filename))
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", record)
    runs.start_run(store, settings, "robot", {}, thread_id="데모-a", lang="ko")
    at = app("app_pages/timeline.py")
    assert not at.exception, at.exception
    (data, filename), *_ = [(d, f) for d, f in sent if f and f.endswith(".csv")]
    assert data.startswith(codecs.BOM_UTF8) and filename.startswith("timeline_데모-a_")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows and rows[0]["thread_id"] == "데모-a" and list(rows[0])[0] == "timestamp"


def test_the_mark_comes_once_before_the_text():
    assert csv_download("a,b\n건,1\n") == b"\xef\xbb\xbfa,b\n" + "건,1\n".encode()


def test_the_cli_csv_has_no_mark(store, settings, capsys, db_location):
    runs.start_run(store, settings, "robot", {})
    assert main(["--db", str(db_location), "timeline", "hitl_demo", "--csv"]) == 0
    assert capsys.readouterr().out.startswith("timestamp,event,")
