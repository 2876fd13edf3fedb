"""Bad input, for every agent: a clear message naming the field, exit code 2, and the file untouched.

One database is set up once (a robot thread waiting and one done, a refund case
waiting and one settled, a lecture waiting at its gate and one at its plan review) and copied per case.
Each case runs one bad command (the CLI) or one bad call (the validators and
``agents.runs``) and compares the database file, and its WAL, byte for byte. An answer refused
only at the question a start reached, and answers drawn at random for every agent's question, are
compared table by table: a refusal leaves every row as it was, and an answer taken is never refused
again inside the pause.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import lifecycle, runs
from agents.db import DatabaseError
from agents.db_sqlite import SqliteStore
from agents.errors import UserError
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT, FIELD_MAX_LENGTH
from agents.lecture.spec import SPEC as LECTURE
from agents.refund.spec import SPEC as REFUND
from agents.refund.spec import START_FIELDS as REFUND_START
from agents.robot.spec import SPEC as ROBOT
from agents.runtime import load_settings, open_store
from agents.spec import validate_fields, validate_update

ANSWER_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
NEW_CASE = ("run", "refund", "--case", "n1", "--customer", "lee", "--reason", "late")
WAITING_REFUND = "refund-c1"
APPROVE = {"action": "approve", "approver": "kim"}
GOOD_START = {"case_id": "n2", "customer": "lee", "amount": 5_000, "reason": "late"}
#: The settings of ``lecture-p``, which waits at the plan review.
PLAN_REVIEW = {"HITL_MODEL_LATENCY": "0", "HITL_PLAN_REVIEW": "on"}


def _lecture(**changes: str) -> tuple[str, ...]:
    """``run lecture`` with every field given (good defaults), some replaced."""
    values = {**DEFAULT_LECTURE_INPUT, **changes}
    return (
        "run",
        "lecture",
        *[part for name, value in values.items() for part in ("--" + name.replace("_", "-"), value)],
    )


def _edit(amount):
    return json.dumps({"action": "edit", "amount": amount, "approver": "kim"})


def _plan_edit(subtopics):
    return json.dumps({"action": "edit_plan", "subtopics": subtopics})


CLI_CASES = [
    # refund: the amount of a request
    ("refund-amount-negative", (*NEW_CASE, "--amount", "-5"), "amount"),
    ("refund-amount-zero", (*NEW_CASE, "--amount", "0"), "amount"),
    ("refund-amount-fraction", (*NEW_CASE, "--amount", "1.5"), "amount"),
    ("refund-amount-huge", (*NEW_CASE, "--amount", "99999999999999999999"), "amount"),
    ("refund-amount-text", (*NEW_CASE, "--amount", "ten thousand"), "amount"),
    ("refund-amount-empty", (*NEW_CASE, "--amount", ""), "amount"),
    # refund: the amount of an edit decision
    ("refund-edit-negative", ("resume", WAITING_REFUND, _edit(-1)), "amount"),
    ("refund-edit-zero", ("resume", WAITING_REFUND, _edit(0)), "amount"),
    ("refund-edit-fraction", ("resume", WAITING_REFUND, _edit(1.5)), "amount"),
    ("refund-edit-huge", ("resume", WAITING_REFUND, _edit(10**12)), "amount"),
    ("refund-edit-text", ("resume", WAITING_REFUND, _edit("lots")), "amount"),
    ("refund-edit-missing", ("resume", WAITING_REFUND, '{"action": "edit", "approver": "kim"}'), "amount"),
    ("refund-approve-with-amount", ("resume", WAITING_REFUND, _edit(5).replace("edit", "approve")), "amount"),
    ("refund-action-unknown", ("resume", WAITING_REFUND, '{"action": "pay", "approver": "kim"}'), "action"),
    ("refund-action-text", ("resume", WAITING_REFUND, "approve"), "action"),
    ("refund-approver-missing", ("resume", WAITING_REFUND, '{"action": "approve"}'), "approver"),
    ("refund-answer-unknown-key", ("resume", WAITING_REFUND, '{"action": "approve", "approver": "k", "x": 1}'), "x"),
    # refund: text fields and the case id
    (
        "refund-customer-empty",
        ("run", "refund", "--case", "n1", "--customer", "", "--amount", "5", "--reason", "r"),
        "customer",
    ),
    (
        "refund-customer-blank",
        ("run", "refund", "--case", "n1", "--customer", "   ", "--amount", "5", "--reason", "r"),
        "customer",
    ),
    (
        "refund-customer-oversized",
        ("run", "refund", "--case", "n1", "--customer", "x" * 101, "--amount", "5", "--reason", "r"),
        "customer",
    ),
    (
        "refund-customer-control",
        ("run", "refund", "--case", "n1", "--customer", "lee\x07", "--amount", "5", "--reason", "r"),
        "customer",
    ),
    (
        "refund-reason-oversized",
        ("run", "refund", "--case", "n1", "--customer", "lee", "--amount", "5", "--reason", "r" * 501),
        "reason",
    ),
    (
        "refund-case-quote",
        ("run", "refund", "--case", "a'b", "--customer", "lee", "--amount", "5", "--reason", "r"),
        "case_id",
    ),
    (
        "refund-case-sql",
        ("run", "refund", "--case", "x;DROP TABLE checkpoints", "--customer", "lee", "--amount", "5", "--reason", "r"),
        "case_id",
    ),
    (
        "refund-case-path",
        ("run", "refund", "--case", "../etc", "--customer", "lee", "--amount", "5", "--reason", "r"),
        "case_id",
    ),
    (
        "refund-case-too-long",
        ("run", "refund", "--case", "c" * 41, "--customer", "lee", "--amount", "5", "--reason", "r"),
        "case_id",
    ),
    (
        "refund-case-reused",
        ("run", "refund", "--case", "c1", "--customer", "lee", "--amount", "5", "--reason", "r"),
        "case_id",
    ),
    ("refund-update-settled", ("update", "refund-c2", "--values", '{"amount": 5}'), "amount"),
    ("refund-update-wrong-type", ("update", WAITING_REFUND, "--values", '{"amount": "many"}'), "amount"),
    ("refund-update-bad-choice", ("update", WAITING_REFUND, "--values", '{"decision": "maybe"}'), "decision"),
    # robot: answers, thread ids, updates
    ("robot-answer-empty", ("resume", "hitl_demo", ""), "answer"),
    ("robot-answer-blank", ("resume", "hitl_demo", "   "), "answer"),
    ("robot-answer-oversized", ("resume", "hitl_demo", "y" * 201), "answer"),
    ("robot-answer-control", ("resume", "hitl_demo", "\x1b[31myes"), "answer"),
    ("robot-answer-wrong-key", ("run", "robot", "--thread", "r2", "--answer", '{"reply": "yes"}'), "answer"),
    ("robot-thread-quote", ("run", "robot", "--thread", 'a"b'), "thread_id"),
    ("robot-thread-long", ("run", "robot", "--thread", "t" * 129), "thread_id"),
    ("robot-thread-path", ("run", "robot", "--thread", "../../etc/passwd"), "thread_id"),
    ("robot-thread-sql", ("resume", "x' OR '1'='1", "yes"), "thread_id"),
    ("robot-thread-unknown", ("resume", "ghost", "yes"), "thread_id"),
    ("robot-thread-empty", ("resume", " ", "yes"), "thread_id"),
    ("robot-not-waiting", ("resume", "robot-done", "yes"), "thread_id"),
    ("robot-update-unknown-key", ("update", "hitl_demo", "--values", '{"colour": "red"}'), "colour"),
    ("robot-update-wrong-type", ("update", "hitl_demo", "--values", '{"pending_action": [1, 2]}'), "pending_action"),
    ("robot-update-empty-text", ("update", "hitl_demo", "--values", '{"decision": " "}'), "decision"),
    (
        "robot-update-as-node",
        ("update", "hitl_demo", "--values", '{"decision": "yes"}', "--as-node", "nope"),
        "as_node",
    ),
    ("robot-update-not-json", ("update", "hitl_demo", "--values", "{decision: yes"), "values"),
    ("robot-update-json-list", ("update", "hitl_demo", "--values", '["decision"]'), "values"),
    ("robot-update-no-keys", ("update", "hitl_demo", "--values", "{}"), "values"),
    (
        "robot-update-checkpoint",
        ("update", "hitl_demo", "--values", '{"decision": "yes"}', "--checkpoint", "1f0-none"),
        "checkpoint_id",
    ),
    ("robot-delete-unknown", ("delete", "ghost", "--yes"), "thread_id"),
    # lecture: the six fields, answers at the gate, updates
    ("lecture-topic-empty", _lecture(topic=""), "topic"),
    ("lecture-topic-oversized", _lecture(topic="t" * (FIELD_MAX_LENGTH + 1)), "topic"),
    ("lecture-audience-blank", _lecture(audience_level="  \t "), "audience_level"),
    ("lecture-constraints-control", _lecture(constraints="no\x00projector"), "constraints"),
    ("lecture-thread-bad", (*_lecture(), "--thread", "lecture x"), "thread_id"),
    ("lecture-action-unknown", ("resume", "lecture-x", "publish"), "action"),
    ("lecture-notes-with-save", ("resume", "lecture-x", '{"action": "save", "notes": "x"}'), "notes"),
    ("lecture-answer-unknown-key", ("resume", "lecture-x", '{"action": "save", "foo": 1}'), "foo"),
    ("lecture-update-wrong-type", ("update", "lecture-x", "--values", '{"draft": 5}'), "draft"),
    (
        "lecture-update-as-node",
        ("update", "lecture-x", "--values", '{"human_notes": "ok"}', "--as-node", "x"),
        "as_node",
    ),
    # an answer given with the start: refused before anything is written
    ("refund-start-answer-above-request", (*NEW_CASE, "--amount", "500000", "--answer", _edit(600_000)), "amount"),
    (
        "refund-start-answer-unsigned",
        (*NEW_CASE, "--amount", "500000", "--answer", '{"action": "approve"}'),
        "approver",
    ),
    ("robot-start-answer-empty", ("run", "robot", "--thread", "r2", "--answer", " "), "--answer"),
    ("lecture-start-answer-no-plan", (*_lecture(), "--answer", _plan_edit([1, 2, 3])), "subtopics"),
    # empty, blank and path-like thread ids: bad input, never the default thread
    ("robot-start-thread-empty", ("run", "robot", "--thread", ""), "--thread"),
    ("robot-start-thread-blank", ("run", "robot", "--thread", " \t"), "--thread"),
    ("robot-start-thread-dot", ("run", "robot", "--thread", "./hitl_demo"), "thread_id"),
    ("robot-start-thread-slash", ("run", "robot", "--thread", "hitl_demo/"), "thread_id"),
    ("lecture-start-thread-empty", (*_lecture(), "--thread", ""), "--thread"),
    ("refund-start-thread-empty", (*NEW_CASE, "--amount", "5", "--thread", ""), "--thread"),
    ("resume-thread-empty", ("resume", "", "yes"), "thread_id"),
    ("delete-thread-empty", ("delete", "", "--yes"), "thread_id"),
    ("continue-thread-dotdot", ("continue", ".."), "thread_id"),
    # refused answers at every pause: nothing written, the refusal is no question asked again
    ("lecture-edit-plan-not-objects", ("resume", "lecture-x", _plan_edit([1, 2])), "subtopics"),
    ("lecture-edit-plan-too-short", ("resume", "lecture-x", _plan_edit(["A"])), "subtopics"),
    (
        "lecture-edit-plan-unknown-id",
        ("resume", "lecture-x", _plan_edit([{"id": "s9", "title": "A"}, "B", "C"])),
        "subtopics",
    ),
    (
        "lecture-edit-plan-researched-renamed",
        ("resume", "lecture-x", _plan_edit([{"id": "s1", "title": "Renamed"}, "B", "C"])),
        "subtopics",
    ),
    ("lecture-answer-not-offered", ("resume", "lecture-x", "pay"), "action"),
    # agent names and option values: empty, blank and path-like ones are refused, naming the option
    ("inbox-agent-path", ("inbox", "--agent", "../x"), "agent"),
    ("inbox-agent-empty", ("inbox", "--agent", ""), "--agent"),
    ("threads-agent-path", ("threads", "--agent", "robot/.."), "agent"),
    ("threads-agent-blank", ("threads", "--agent", "  "), "--agent"),
    ("db-empty-before", ("--db", "", "threads"), "--db"),
    ("db-blank-after", ("threads", "--db", " "), "--db"),
    ("update-as-node-empty", ("update", "hitl_demo", "--values", '{"decision": "no"}', "--as-node", ""), "--as-node"),
    (
        "update-checkpoint-empty",
        ("update", "hitl_demo", "--values", '{"decision": "no"}', "--checkpoint", ""),
        "--checkpoint",
    ),
    ("rerun-checkpoint-blank", ("rerun", "hitl_demo", "--checkpoint", " "), "--checkpoint"),
    ("timeline-run-empty", ("timeline", "hitl_demo", "--run", ""), "--run"),
    ("serve-host-empty", ("serve", "--host", ""), "--host"),
    ("migrate-from-empty", ("migrate", "--from", "", "--to", "postgresql://x"), "--from"),
    ("token-hash-label-empty", ("token-hash", "--new", "--label", ""), "--label"),
    ("token-hash-label-newline", ("token-hash", "--new", "--label", 'x" = 1\n[users]'), "label"),
    ("token-hash-email-invalid", ("token-hash", "--new", "--email", "not-an-email"), "email"),
    ("token-hash-email-empty", ("token-hash", "--new", "--email", ""), "--email"),
]

# Validator and runs-level calls: (id, call(store, settings), field)
CALL_CASES = [
    ("fields-unknown-key", lambda s, st: validate_fields(REFUND_START, {**GOOD_START, "extra": 1}), "extra"),
    (
        "fields-missing",
        lambda s, st: validate_fields(REFUND_START, {"case_id": "a", "amount": 5, "reason": "r"}),
        "customer",
    ),
    ("field-int-bool", lambda s, st: REFUND_START[2].validate(True), "amount"),
    ("field-int-none-object", lambda s, st: REFUND_START[2].validate([5]), "amount"),
    ("update-no-values", lambda s, st: validate_update(ROBOT, {}, None), "values"),
    ("update-as-node-lecture", lambda s, st: validate_update(LECTURE, {"draft": "x"}, "writer"), "as_node"),
    ("check-resume-robot", lambda s, st: ROBOT.ask.check_resume({"reply": "yes"}), "answer"),
    ("check-resume-refund", lambda s, st: REFUND.ask.check_resume(["approve"]), "action"),
    ("check-resume-lecture", lambda s, st: LECTURE.ask.check_resume(5), "action"),
    ("runs-resume-unknown", lambda s, st: runs.resume_thread(s, st, "ghost", "yes"), "thread_id"),
    (
        "runs-continue-bad-checkpoint",
        lambda s, st: runs.continue_thread(s, st, "hitl_demo", checkpoint_id="x"),
        "checkpoint_id",
    ),
    ("runs-stale-form", lambda s, st: runs.resume_thread(s, st, "hitl_demo", "yes", expected_head="old"), "thread"),
    (
        "refund-request-reused",
        lambda s, st: runs.start_run(s, st, "refund", {**GOOD_START, "case_id": "c2"}),
        "case_id",
    ),
    ("runs-start-thread-empty", lambda s, st: runs.start_run(s, st, "robot", {}, thread_id=""), "thread_id"),
    ("runs-start-thread-blank", lambda s, st: runs.start_run(s, st, "robot", {}, thread_id=" "), "thread_id"),
    (
        "runs-start-lecture-thread-empty",
        lambda s, st: runs.start_run(s, st, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=""),
        "thread_id",
    ),
    ("lifecycle-inbox-agent-path", lambda s, st: lifecycle.inbox(s, agent="../x"), "agent"),
    ("lifecycle-statuses-agent-empty", lambda s, st: lifecycle.thread_statuses(s, agent=""), "agent"),
    (
        "runs-resume-plan-edit-unknown-id",
        lambda s, st: runs.resume_thread(
            s, st, "lecture-x", {"action": "edit_plan", "subtopics": ["A", "B", {"id": "s9", "title": "C"}]}
        ),
        "subtopics",
    ),
    (
        "readonly-store",
        lambda s, st: runs.resume_thread(SqliteStore(s.path, tables=s.tables, read_only=True), st, "hitl_demo", "yes"),
        "read-only",
    ),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A database with a thread of every kind, closed (its WAL folded into the file)."""
    path = tmp_path_factory.mktemp("bad-input") / "template.sqlite"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HITL_MODEL_LATENCY", "0")
        _fill(path)
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return path


def _fill(path: Path) -> None:
    store = open_store(path)
    settings = load_settings(db_override=str(path), secrets={})
    runs.start_run(store, settings, "robot", {}, thread_id="hitl_demo")
    runs.start_run(store, settings, "robot", {}, thread_id="robot-done")
    runs.resume_thread(store, settings, "robot-done", "yes")
    runs.start_run(store, settings, "refund", {"case_id": "c1", "customer": "lee", "amount": 500_000, "reason": "late"})
    runs.start_run(store, settings, "refund", {"case_id": "c2", "customer": "lee", "amount": 5_000, "reason": "late"})
    assert (
        runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-x").status
        == "waiting"
    )
    reviewing = load_settings(db_override=str(path), environ=PLAN_REVIEW, secrets={})
    assert runs.start_run(store, reviewing, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-p").status == (
        "waiting"
    )
    store.close()


def _snapshot(path: Path) -> tuple[bytes, bytes]:
    wal = Path(f"{path}-wal")
    return path.read_bytes(), wal.read_bytes() if wal.exists() else b""


@pytest.fixture
def prepared(template, db_path) -> Path:
    shutil.copyfile(template, db_path)
    return db_path


@pytest.mark.parametrize(("args", "field"), [pytest.param(a, f, id=i) for i, a, f in CLI_CASES])
def test_bad_cli_input_exits_2_names_the_field_and_changes_nothing(prepared, run_cli, args, field):
    before = _snapshot(prepared)
    result = run_cli(*args)
    assert result.code == 2, (result.out, result.err)
    assert field in result.err and "Traceback" not in result.err
    assert result.out == ""
    assert _snapshot(prepared) == before


@pytest.mark.parametrize(("call", "field"), [pytest.param(c, f, id=i) for i, c, f in CALL_CASES])
def test_bad_call_raises_a_user_error_naming_the_field_and_changes_nothing(prepared, settings, call, field):
    before = _snapshot(prepared)
    store = open_store(prepared)
    try:
        with pytest.raises((UserError, DatabaseError)) as caught:
            call(store, settings)
    finally:
        store.close()
    assert field in str(caught.value)
    if isinstance(caught.value, UserError) and hasattr(caught.value, "field"):
        assert caught.value.field == field
    assert _snapshot(prepared) == before


def _future_schema(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE hitl_meta SET value = '999' WHERE key = 'schema_version'")
    conn.close()
    return "newer release"


def _not_a_database(path: Path) -> str:
    path.write_bytes(b"this is not sqlite\n" * 200)
    return "not a SQLite database"


@pytest.mark.parametrize("spoil", [_future_schema, _not_a_database], ids=["future-schema", "not-a-database"])
@pytest.mark.parametrize(
    "args",
    [("threads",), ("run", "robot", "--answer", "yes"), ("resume", "hitl_demo", "yes")],
    ids=["threads", "run", "resume"],
)
def test_an_unusable_file_is_refused_untouched(prepared, run_cli, spoil, args):
    message = spoil(prepared)
    before = _snapshot(prepared)
    result = run_cli(*args)
    assert result.code == 2 and message in result.err and str(prepared) in result.err
    assert _snapshot(prepared) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through chmod 0o444; covered by readonly-store above")
def test_a_read_only_file_is_opened_read_only_and_refuses_changes(prepared, run_cli):
    os.chmod(prepared, 0o444)
    os.chmod(prepared.parent, 0o555)
    try:
        before = _snapshot(prepared)
        assert run_cli("threads").code == 0
        result = run_cli("resume", "hitl_demo", "yes")
        assert result.code == 2 and "read-only" in result.err
        assert _snapshot(prepared) == before
    finally:
        os.chmod(prepared.parent, 0o755)
        os.chmod(prepared, 0o644)


def _tables(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows (checkpoints, writes, the node log, the agents' tables), in a fixed order.

    Not the change feed's ``thread_changes``: a thread written and deleted again is noted there as
    changed, which readers need in order to drop it.
    """
    with sqlite3.connect(path) as conn:
        names = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if row[0] != "thread_changes"
        ]
        tables = {name: sorted(conn.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr) for name in names}
    conn.close()
    return tables


@pytest.mark.parametrize(
    ("answer", "environ", "field"),
    [
        ("pay", {}, "action"),  # the gate offers rework, edit_plan, save (approve), reject
        ('{"action": "edit_plan", "subtopics": [{"id": "s9", "title": "A"}, "B", "C"]}', {}, "subtopics"),
        ("save", {"HITL_PLAN_REVIEW": "on"}, "action"),  # the plan review offers approve, edit_plan
    ],
    ids=["not offered at the gate", "an id the plan lacks", "not offered at the plan review"],
)
def test_an_answer_given_with_the_start_that_the_question_refuses_leaves_nothing(
    prepared, run_cli, monkeypatch, answer, environ, field
):
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    before = _tables(prepared)
    result = run_cli(*_lecture(), "--thread", "lecture-new", "--answer", answer)
    assert result.code == 2 and f"error: {field}:" in result.err, result.err
    assert _tables(prepared) == before  # the run it started is deleted with its node log
    assert run_cli(*_lecture(), "--thread", "lecture-new").code == 0  # and the id is free again


TEXT = st.one_of(st.text(max_size=12), st.sampled_from(["", " ", "yes", "automatic", "kim", "s1", "x\n", "\u202e"]))
JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(10**7), 2 * 10**7), st.floats(allow_nan=False), TEXT)
#: Answers of every agent's shape, right and wrong, and values of no agent's shape.
ROBOT_ANSWERS = st.one_of(TEXT, JSON_LEAF, st.dictionaries(st.sampled_from(["answer", "reply"]), TEXT, max_size=2))
REFUND_ANSWERS = st.fixed_dictionaries(
    {"action": st.sampled_from(["approve", "reject", "edit", "pay", ""])},
    optional={
        "amount": st.one_of(st.integers(-1, 600_000), st.sampled_from([500_000, 500_001, "5,000", 1.5])),
        "approver": TEXT,
        "note": TEXT,
        "extra": JSON_LEAF,
    },
)
SUBTOPIC = st.one_of(
    TEXT,
    JSON_LEAF,
    st.fixed_dictionaries(
        {"title": TEXT},
        optional={"id": st.sampled_from(["s1", "s2", "s3", "s4", "s9", "", 5]), "description": TEXT, "x": TEXT},
    ),
)
LECTURE_ANSWERS = st.one_of(
    st.sampled_from(["rework", "save", "reject", "approve", "edit_plan", " save ", "Save"]),
    st.fixed_dictionaries(
        {"action": st.sampled_from(["rework", "edit_plan", "save", "reject", "approve", "publish"])},
        optional={"notes": TEXT, "subtopics": st.lists(SUBTOPIC, max_size=6), "extra": JSON_LEAF},
    ),
)
WAITING = {"hitl_demo": ({}, ROBOT_ANSWERS), WAITING_REFUND: ({}, REFUND_ANSWERS)}
WAITING |= {"lecture-x": ({}, LECTURE_ANSWERS), "lecture-p": (PLAN_REVIEW, LECTURE_ANSWERS)}


@pytest.mark.parametrize("thread", sorted(WAITING))
def test_a_refused_answer_writes_nothing_and_an_accepted_one_is_never_refused_by_the_pause(
    template, tmp_path_factory, thread
):
    """For every agent's waiting question: an answer is refused (UserError) with every table as it was,
    or accepted, and then the pause took it (no refusal inside the question asked next)."""
    environ, answers = WAITING[thread]
    folder = tmp_path_factory.mktemp("answers")

    @ANSWER_SETTINGS
    @given(answers)
    def check(answer):
        path = folder / f"{uuid.uuid4().hex}.sqlite"
        shutil.copyfile(template, path)
        settings = load_settings(db_override=str(path), environ={"HITL_MODEL_LATENCY": "0", **environ}, secrets={})
        before = _tables(path)
        store = open_store(path)
        try:
            result = runs.resume_thread(store, settings, thread, answer)
        except UserError:
            store.close()
            assert _tables(path) == before, answer
            return
        store.close()
        assert not any(isinstance(p, dict) and p.get("error") for p in result.interrupts), (answer, result.interrupts)

    check()
