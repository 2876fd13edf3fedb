"""The refund audit's views: each draws the case and a few columns that fit a 1280-pixel window, and
together they draw every column of the audit, so none is only in the data."""

from __future__ import annotations

import pytest

from agents import runs
from agents.refund import strings as refund_strings
from agents.roles_file import parse_roles
from dashboard import audit_views
from dashboard.formats import timestamp
from dashboard.tables import LINK_WIDTH
from tests.factories import start_refund

PAGE = "app_pages/refund.py"
#: The grid's width inside its border in a 1280-pixel window (the page's main column).
GRID_WIDTH = 816


def test_every_audit_column_is_drawn_in_a_view_and_has_a_width():
    keys = {key for view in audit_views.AUDIT_VIEWS.values() for key in view} | {"refund.col.case"}
    assert keys == set(audit_views.AUDIT_WIDTHS)
    assert len(keys) == 20  # every column of the audit table, none left to the data alone


@pytest.mark.parametrize("view", list(audit_views.AUDIT_VIEWS))
def test_each_audit_view_fits_a_1280_pixel_window(view):
    shown = ["refund.col.case", *audit_views.AUDIT_VIEWS[view]]
    assert LINK_WIDTH + sum(audit_views.AUDIT_WIDTHS[key] for key in shown) <= GRID_WIDTH


@pytest.mark.parametrize(
    ("lang", "view", "label", "drawn"),
    [
        (
            "en",
            "amounts",
            "amounts",
            ["open", "case", "status", "customer", "requested", "to pay", "executed", "outcome"],
        ),
        ("ko", "deletions", "삭제", ["열기", "건", "삭제 당시 상태", "삭제한 사람", "삭제 시각", "삭제 사유"]),
    ],
)
def test_the_audit_draws_the_chosen_views_columns_and_keeps_every_column_in_its_data(
    app, store, settings, lang, view, label, drawn
):
    start_refund(store, settings, "C1", 480_000)
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.session_state["refund-audit-view"] = view  # as a click on the view's segment sets it
    at.run()
    assert refund_strings.STRINGS[f"refund.audit.view.{view}"][lang == "ko"] == label
    assert not at.exception, at.exception
    audit = next(
        frame for frame in at.dataframe if drawn[-1] in frame.value.columns and "C1" in set(frame.value[drawn[1]])
    )
    assert list(audit.proto.column_order) == drawn
    assert len(audit.value.columns) == 21  # the link and all twenty columns


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_deleted_case_has_an_empty_open_cell_in_the_audit_never_none(app, store, settings, lang):
    start_refund(store, settings, "LIVE1", 480_000)
    start_refund(store, settings, "GONE1", 120_000)
    runs.delete_thread(store, "refund-GONE1", reason="entered twice")
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    case, opened = ("건", "열기") if lang == "ko" else ("case", "open")
    audit = next(frame for frame in at.dataframe if "GONE1" in set(frame.value.get(case, ())))
    links = dict(zip(audit.value[case], audit.value[opened], strict=True))
    assert links["GONE1"] == ""  # nothing to open, and no "None" in the cell
    assert "thread=refund-LIVE1" in links["LIVE1"]


#: The audit's words of a case with items decided by two people signed in: its decision, approver's role.
ITEM_CASE_WORDS = {
    "en": {"case": "case", "decision": "mixed", "approver": "approver", "role": "approver, senior approver"},
    "ko": {"case": "건", "decision": "승인·거절", "approver": "승인자", "role": "승인자, 선임 승인자"},
}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_case_with_items_shows_who_decided_it_and_when_in_the_audit(app, store, settings, lang):
    roles = parse_roles(
        '[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n'
        '"park@example.com" = { role = "senior_approver" }\n'
    )
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "c", "reason": "r", "items": items})
    asked = {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}
    for item, email, action in (("A-1", "kim@example.com", "approve"), ("A-2", "park@example.com", "reject")):
        actor = roles.identity_for(email)
        runs.resume_thread(store, settings, "refund-M1", {"action": action}, interrupt_id=asked[item], actor=actor)
    decided = max(r["decided_at"] for r in runs.current_result(store, settings, "refund-M1").values["item_results"])
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.session_state["refund-audit-view"] = "times"
    at.run()
    assert not at.exception, at.exception
    words = ITEM_CASE_WORDS[lang]
    audit = next(frame for frame in at.dataframe if "M1" in set(frame.value.get(words["case"], ())))
    decided_at = refund_strings.STRINGS["refund.col.decided_at"][lang == "ko"]
    assert decided_at in list(audit.proto.column_order)  # drawn in the requests-and-times view
    (row,) = audit.value.to_dict("records")
    assert row[decided_at] == timestamp(decided, settings.zone) != ""  # its last decision, in the page's time zone
    decision = refund_strings.STRINGS["refund.col.decision"][lang == "ko"]
    approver = refund_strings.STRINGS["refund.col.approver"][lang == "ko"]
    assert (row[decision], row[approver]) == (words["decision"], "kim@example.com, park@example.com")
    role = next(column for column in audit.value.columns if column.endswith(("role", "역할")))
    assert row[role] == words["role"]
    outcome = refund_strings.STRINGS["refund.col.outcome"][lang == "ko"]
    assert row[outcome] == {"en": "partly paid", "ko": "일부 지급됨"}[lang]  # one item paid, one rejected
