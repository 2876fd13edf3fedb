"""A refund's items are named for people: each item's box and the sidebar's question picker say the item
and its amount; an interrupt id shows only cut short (``f3519877…``), whole in a tooltip for the CLI."""

from __future__ import annotations

import re

import pytest

from agents import runs

PAGE = "app_pages/refund.py"
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
WHOLE_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.parametrize(
    ("lang", "options"),
    [("en", ("A-1 · 300,000 KRW", "A-3 · 200,000 KRW")), ("ko", ("A-1 · 300,000원", "A-3 · 200,000원"))],
)
def test_item_boxes_and_the_question_picker_name_items_not_ids(app, store, settings, lang, options):
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    runs.start_run(store, settings, "refund", values)
    ids = [str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts]
    at = app(PAGE)
    at.query_params["thread"] = "refund-M1"
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    shown = [c.value for c in at.main.caption] + [m.value for m in at.main.markdown]
    assert not [text for text in shown if WHOLE_ID.search(text)], shown  # no 32-hex id in the main area
    short = [c for c in at.main.caption if c.value.endswith("…") and c.help]
    assert sorted(c.help.rsplit(" ", 1)[-1] for c in short) == sorted(ids)  # the whole id, in the tooltip
    picker = at.sidebar.selectbox(key="resume-interrupt-refund-M1")
    assert [option.rsplit(" · ", 1)[0] for option in picker.options] == list(options)
    assert all(len(option) <= 30 for option in picker.options), picker.options  # fits the sidebar's picker
