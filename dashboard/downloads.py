"""What the dashboard's download buttons send, shaped for the program that opens them.

A CSV is opened by a spreadsheet more often than by a script. Excel reads a CSV without a byte-order
mark in the system's legacy code page, so Korean labels (a lecture's subtopics, a refund's reasons)
come out garbled; with the UTF-8 mark first it reads UTF-8. Python's ``csv`` module and pandas read
the mark away with ``encoding="utf-8-sig"``. The CLI's ``--csv`` writes to a terminal or a pipe, where
a mark would be a stray character, so it writes none: the mark belongs to the download alone.
"""

from __future__ import annotations

import codecs


def csv_download(text: str) -> bytes:
    """A CSV text as a download: UTF-8 with a byte-order mark, so Excel reads Korean as written."""
    return codecs.BOM_UTF8 + text.encode("utf-8")
