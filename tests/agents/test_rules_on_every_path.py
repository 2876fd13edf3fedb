"""Rules that a crafted input could get round, each tried on the path that bypassed it.

A case id typed in decomposed Unicode, an approver name with invisible characters, a name made only
of them, a boolean amount, an answer the lecture's pause does not offer, an approver starting a
waiting robot over, an update as LangGraph's ``__copy__``, an update whose node cannot be routed, an
edit of what a finished robot did, and a thread started through LangGraph's own tooling. Each
refusal is checked to change nothing.
"""

from __future__ import annotations

import unicodedata

import pytest

from agents import langgraph_app, lifecycle, readmodel, runs, runtime
from agents.errors import InputError, PermissionDenied, StaleFormError
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund import ledger
from agents.registry import get_agent
from agents.roles_file import parse_roles
from agents.runtime import load_settings
from tests.factories import answer_robot, pause_robot, start_refund, thread_counts

ROLES = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"admin@example.com" = { role = "admin", name = "Admin" }
"""
)
KIM = ROLES.identity_for("kim@example.com", "Kim")
ADMIN = ROLES.identity_for("admin@example.com", "Admin")


def _request(store, settings, case_id: str, amount: int = 500_000) -> runs.RunResult:
    values = {"case_id": case_id, "customer": "kim", "amount": amount, "reason": "broken"}
    return runs.start_run(store, settings, "refund", values)


# --- the refund ------------------------------------------------------------------------------------


def test_a_case_id_typed_decomposed_is_the_same_case_and_is_never_paid_twice(store, settings):
    decomposed, composed = (unicodedata.normalize(form, "건-1042") for form in ("NFD", "NFC"))
    assert decomposed != composed
    first = _request(store, settings, decomposed)
    assert first.thread_id == "refund-" + composed and first.values["case_id"] == composed
    runs.resume_thread(store, settings, first.thread_id, {"action": "approve", "approver": "kim"})
    runs.delete_thread(store, first.thread_id)
    for typed in (composed, decomposed):
        with pytest.raises(InputError, match="case_id"):
            _request(store, settings, typed)
    assert [row["case_id"] for row in ledger.ledger_rows(store)] == [composed]
    assert readmodel.head_checkpoint_id(store, first.thread_id) is None


@pytest.mark.parametrize(
    "approver",
    [
        "automatic\u200b",
        "\u2060update_state",
        "ａｕｔｏｍａｔｉｃ",
        "AUTOMATIC\ufeff",
        "\u0430utomatic",  # a Cyrillic а
        "\u1d00utomatic",  # a small-capital ᴀ
        "automati\u0301c",  # an accent
        "upd\u0430te_st\u0430te",
    ],
    ids=[
        "zero-width space",
        "word joiner",
        "fullwidth",
        "byte-order mark",
        "cyrillic",
        "small capital",
        "accent",
        "update",
    ],
)
def test_a_reserved_approver_name_with_invisible_or_lookalike_letters_is_refused_on_both_paths(
    store, settings, approver
):
    start_refund(store, settings, "C1")
    before = thread_counts(store, "refund-C1")
    with pytest.raises(InputError, match="approver"):
        runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": approver})
    with pytest.raises(InputError, match="approver"):
        runs.update_thread(store, settings, "refund-C1", {"decision": "approve", "approver": approver})
    assert thread_counts(store, "refund-C1") == before and ledger.ledger_rows(store) == []


@pytest.mark.parametrize("typed", ["\u200b", " \u2060 ", "\ufeff"], ids=["zero-width", "word joiner", "BOM"])
def test_a_name_of_nothing_visible_is_empty(store, settings, typed):
    start_refund(store, settings, "C1")
    before = thread_counts(store, "refund-C1")
    with pytest.raises(InputError, match="approver: is empty"):
        runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": typed})
    with pytest.raises(InputError, match="customer: is empty"):
        runs.start_run(store, settings, "refund", {"case_id": "C2", "customer": typed, "amount": 5, "reason": "r"})
    assert thread_counts(store, "refund-C1") == before and ledger.ledger_rows(store) == []
    assert readmodel.head_checkpoint_id(store, "refund-C2") is None


def test_a_name_that_reorders_what_a_reader_sees_is_refused(store, settings):
    start_refund(store, settings, "C1")
    with pytest.raises(InputError, match="U\\+202E"):
        runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": "k\u202exn"})
    assert ledger.ledger_rows(store) == []


def test_joiners_of_scripts_and_emoji_are_still_text(store, settings):
    start_refund(store, settings, "C1", customer="👩\u200d💻 کار\u200cمند")
    assert runs.current_result(store, settings, "refund-C1").values["customer"] == "👩\u200d💻 کار\u200cمند"


def test_settle_refuses_a_boolean_amount_that_slipped_past_every_path(store, settings):
    start_refund(store, settings, "C1")
    graph = runtime.graph(store, "refund")
    config = runs.run_config(get_agent("refund"), "refund-C1")
    graph.update_state(config, {"amount": True, "decision": "approve", "approver": "kim"}, as_node="review")
    with pytest.raises(ValueError, match="refusing to pay True"):
        graph.invoke(None, config)
    assert ledger.ledger_rows(store) == []
    assert lifecycle.thread_status(store, "refund-C1").status == "attention"


# --- the lecture planner ----------------------------------------------------------------------------


#: LangChain's edit of the gate's request: a rework with notes.
EDIT_NOTES = {"name": "save_lecture_plan", "args": {"notes": "more breaks"}}


def _lecture_at_gate(store, db_location: str, **environ: str):
    settings = load_settings(db_override=db_location, environ={"HITL_MODEL_LATENCY": "0", **environ}, secrets={})
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    assert result.status == "waiting" and result.interrupts[0]["stage"] == "gate", result
    return settings


@pytest.mark.parametrize(
    ("environ", "answer", "why"),
    [
        # (``approve`` at the gate saves: it approves the gate's save_lecture_plan request.)
        ({"HITL_MAX_ROUNDS": "1"}, {"action": "rework", "notes": "more breaks"}, "round limit"),
        ({"HITL_MAX_ROUNDS": "1"}, {"action": "edit_plan", "subtopics": ["Prompts", "Tools", "Labs"]}, "round limit"),
        ({"HITL_MAX_ROUNDS": "1"}, {"decisions": [{"type": "edit", "edited_action": EDIT_NOTES}]}, "round limit"),
    ],
    ids=["rework at the round limit", "edit_plan at the round limit", "an edit decision at the round limit"],
)
def test_an_answer_the_pause_does_not_offer_is_refused_before_anything_is_written(
    store, db_location, environ, answer, why
):
    settings = _lecture_at_gate(store, db_location, **environ)
    before = thread_counts(store, "lec-1")
    with pytest.raises(InputError, match=why) as refused:
        runs.resume_thread(store, settings, "lec-1", answer)
    assert refused.value.field == "action"
    assert thread_counts(store, "lec-1") == before
    result = runs.resume_thread(store, settings, "lec-1", "save")  # an offered answer still goes through
    assert (result.status, result.outcome) == ("done", "saved_as_is")


#: Plan edits no plan can take (checked from the answer alone), and ones this thread's plan cannot
#: (an unknown id, a researched subtopic redefined, no change): the pause would refuse each.
REFUSED_PLAN_EDITS = [
    ([1, 2], "item 0 must be an object"),
    (["A"], "3 to 5 subtopics"),
    (["A", "a", "B"], "appears twice"),
    ([{"id": "s9", "title": "A"}, "B", "C"], "no subtopic 's9'"),
    ([{"id": "s1", "title": "Renamed"}, "B", "C"], "already researched"),
]


@pytest.mark.parametrize("plan_review", ["off", "on"], ids=["at the gate", "at the plan review"])
@pytest.mark.parametrize(("subtopics", "why"), REFUSED_PLAN_EDITS, ids=[why for _, why in REFUSED_PLAN_EDITS])
def test_a_plan_edit_the_pause_would_refuse_is_refused_before_anything_is_written(
    store, db_location, plan_review, subtopics, why
):
    settings = load_settings(
        db_override=db_location, environ={"HITL_MODEL_LATENCY": "0", "HITL_PLAN_REVIEW": plan_review}, secrets={}
    )
    started = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    assert started.status == "waiting", started
    if plan_review == "on" and why == "already researched":  # nothing is researched before the plan review
        subtopics = [dict(s) for s in started.interrupts[0]["subtopics"]]
        why = "changes nothing"
    before = thread_counts(store, "lec-1")
    with pytest.raises(InputError, match=why) as refused:
        runs.resume_thread(store, settings, "lec-1", {"action": "edit_plan", "subtopics": subtopics})
    assert refused.value.field == "subtopics"
    assert thread_counts(store, "lec-1") == before
    assert "error" not in runs.current_result(store, settings, "lec-1").interrupts[0]


@pytest.mark.parametrize("as_node", ["decide", "plan_review"])
def test_an_update_as_a_node_whose_edges_need_its_output_is_refused_naming_as_node(store, db_location, as_node):
    settings = _lecture_at_gate(store, db_location)
    before = thread_counts(store, "lec-1")
    with pytest.raises(InputError, match="cannot be routed") as refused:
        runs.update_thread(store, settings, "lec-1", {"human_notes": "x"}, as_node=as_node)
    assert refused.value.field == "as_node"
    assert thread_counts(store, "lec-1") == before


# --- every agent ----------------------------------------------------------------------------------


@pytest.mark.parametrize("agent_thread", ["robot", "refund"])
def test_an_update_as_copy_is_refused_and_the_waiting_question_stays(store, settings, agent_thread):
    if agent_thread == "robot":
        thread_id, values = "hitl_demo", {"decision": "yes"}
        pause_robot(store, settings)
    else:
        thread_id, values = "refund-C1", {"amount": 100}
        start_refund(store, settings, "C1")
    before = thread_counts(store, thread_id)
    with pytest.raises(InputError, match="as_node") as refused:
        runs.update_thread(store, settings, thread_id, values, as_node="__copy__")
    assert refused.value.field == "as_node"
    assert thread_counts(store, thread_id) == before
    assert lifecycle.thread_status(store, thread_id).status == "waiting"


# --- the robot --------------------------------------------------------------------------------------


def test_an_approver_cannot_start_over_a_robot_that_waits_but_an_admin_can(store, settings):
    pause_robot(store, settings)
    before = thread_counts(store, "hitl_demo")
    with pytest.raises(InputError, match="is waiting for an answer"):  # a new input never deletes it unseen
        runs.start_run(store, settings, "robot", {}, actor=ADMIN)
    with pytest.raises(PermissionDenied, match="not finished; starting over.*needs an admin"):
        runs.start_run(store, settings, "robot", {}, actor=KIM, delete_unfinished=True)
    assert thread_counts(store, "hitl_demo") == before
    restarted = runs.start_run(store, settings, "robot", {}, actor=ADMIN, delete_unfinished=True)
    assert restarted.status == "waiting" and restarted.head_checkpoint_id != before[2]


def test_an_approver_may_start_over_a_finished_robot(store, settings):
    answer_robot(store, settings, "hitl_demo", "no")
    restarted = runs.start_run(store, settings, "robot", {}, actor=KIM)
    assert restarted.status == "waiting"
    assert readmodel.checkpoint_chain(store, "hitl_demo")[0].source == "input"
    assert len(readmodel.checkpoint_chain(store, "hitl_demo")) == 3  # the old history is gone


def test_a_start_over_drawn_before_another_tabs_answer_deletes_nothing(store, settings):
    seen = pause_robot(store, settings).head_checkpoint_id  # the head this tab drew
    runs.resume_thread(store, settings, "hitl_demo", "yes")  # another tab answered since
    after = thread_counts(store, "hitl_demo")
    with pytest.raises(StaleFormError, match="changed since this form was drawn"):
        runs.start_run(store, settings, "robot", {}, expected_head=seen)
    assert thread_counts(store, "hitl_demo") == after
    assert runs.current_result(store, settings, "hitl_demo").outcome == "executed"
    restarted = runs.start_run(store, settings, "robot", {}, expected_head=after[2])  # what is there now
    assert restarted.status == "waiting" and len(readmodel.checkpoint_chain(store, "hitl_demo")) == 3


def test_a_start_over_drawn_when_there_was_no_thread_does_not_delete_one_started_since(store, settings):
    started = pause_robot(store, settings)  # another tab started it after this one drew "no thread"
    with pytest.raises(StaleFormError):
        runs.start_run(store, settings, "robot", {}, expected_head=None)
    assert thread_counts(store, "hitl_demo")[2] == started.head_checkpoint_id
    with pytest.raises(StaleFormError):  # and a head it never saw is no licence either
        runs.start_run(store, settings, "robot", {}, thread_id="elsewhere", expected_head=started.head_checkpoint_id)
    assert readmodel.head_checkpoint_id(store, "elsewhere") is None


@pytest.mark.parametrize(("answered", "edited"), [("no", "yes"), ("yes", "no")])
def test_what_a_finished_robot_did_cannot_be_edited_at_its_head(store, settings, answered, edited):
    answer_robot(store, settings, "hitl_demo", answered)
    outcome = lifecycle.thread_status(store, "hitl_demo").outcome
    before = thread_counts(store, "hitl_demo")
    for as_node in (None, "execute", "approval"):
        with pytest.raises(InputError, match="already acted"):
            runs.update_thread(store, settings, "hitl_demo", {"decision": edited}, as_node=as_node)
    assert thread_counts(store, "hitl_demo") == before
    status = lifecycle.thread_status(store, "hitl_demo")
    assert (status.status, status.outcome) == ("done", outcome)


@pytest.mark.parametrize("where", ["the head named by its id", "a checkpoint after execute"])
def test_what_a_finished_robot_did_cannot_be_edited_in_a_fork_after_it_acted(store, settings, where):
    answer_robot(store, settings, "hitl_demo", "yes")
    after_execute = [c for c in readmodel.checkpoint_chain(store, "hitl_demo") if c.step >= 3]
    if where == "a checkpoint after execute":  # an update that changes nothing else leaves one more
        runs.update_thread(store, settings, "hitl_demo", {"pending_action": "Another trip"})
    target = after_execute[-1].checkpoint_id
    before = thread_counts(store, "hitl_demo")
    with pytest.raises(InputError, match="already acted"):
        runs.update_thread(store, settings, "hitl_demo", {"decision": "no"}, checkpoint_id=target)
    assert thread_counts(store, "hitl_demo") == before
    status = lifecycle.thread_status(store, "hitl_demo")
    assert (status.status, status.outcome) == ("done", "executed")


def test_a_finished_robot_can_still_be_forked_from_before_it_acted(store, settings):
    paused = pause_robot(store, settings)
    runs.resume_thread(store, settings, "hitl_demo", "no")
    forked = runs.update_thread(
        store, settings, "hitl_demo", {"decision": "yes"}, as_node="approval", checkpoint_id=paused.head_checkpoint_id
    )
    assert forked.status == "attention"  # edited: continue runs execute on the new answer
    assert runs.continue_thread(store, settings, "hitl_demo").outcome == "executed"


def test_a_thread_started_through_langgraphs_tooling_belongs_to_its_agent(store, settings, db_location):
    runtime.configured.cache_clear()  # the tooling's store: this test's database
    try:
        graph = langgraph_app.served_graph("robot", {})  # no server checkpointer: the configured database's
        graph.invoke({"messages": [("human", "hi")]}, {"configurable": {"thread_id": "dev-1"}})
    finally:
        runtime.configured()[1].close()
        runtime.configured.cache_clear()
    assert readmodel.thread_agent(store, "dev-1") == "robot"
    assert lifecycle.thread_status(store, "dev-1").status == "waiting"
    assert runs.resume_thread(store, settings, "dev-1", "yes").outcome == "executed"
