"""Random sequences of operations on refund cases keep the refund rules, on SQLite and PostgreSQL.

A hypothesis state machine (:class:`RefundCases`) drives each sequence through
the public functions every page, form, CLI command and API call uses:
``runs.start_run``; ``runs.update_thread`` on the head, or on a checkpoint of
the thread (a fork); ``runs.continue_thread`` on, or from a checkpoint of the
thread (a re-run); ``runs.resume_from_fields`` (the approver's form) and raw
``runs.resume_thread``;
``runs.restore_checkpoint``; ``runs.delete_thread``; each with good values or,
one draw in four, spoiled by one bad one (amounts 0, -5, above the request,
huge, ``"500,00"``, ``"1_0"``, ``"１０００"``, booleans, fractions; decisions and
actions that do not exist; approvers empty, ``automatic``, ``update_state``,
too long; ``as_node`` settle, reject, ``__copy__``, nonsense; unknown keys;
approve with an amount, edit without one; non-object answers; unknown or
another thread's checkpoint ids; a stale ``expected_head``), and on unknown or
malformed thread ids. A refusal (:class:`~agents.errors.UserError`) is a valid
outcome. :class:`~agents.errors.RunFailedError` (a node raised) fails the test,
as any other exception does: the rules refuse every state a refund node could
fail on. Every sequence runs on its own fresh database (a new SQLite file in a
new temp folder, or a new PostgreSQL schema, made and set up in a thread while the
sequence before it runs), so no example sees another's cases; each starts under a
drawn routing policy.

Checked after every step (``@invariant``):

* the ledger (``ledger.ledger_rows``) holds at most one row per case, for a case
  that was started, on the case's own thread; a row, once written, never changes
  (but for ``repeat_attempts``) and never disappears, even when its thread is deleted;
* every refund thread is ``done`` (as ``lifecycle.thread_statuses`` serves it) and not in the
  inbox, or it is in ``lifecycle.inbox`` as ``waiting`` or ``attention`` (never
  ``running``, and no lease is left behind); after each operation, the one-thread read
  (``lifecycle.thread_status``) of the thread it acted on says the same;
* ``done``/``paid``: exactly one ledger row, paying 1 to the requested amount,
  on an approval by a non-empty approver who is the one in the state and whom the
  trace's last decision line names; ``automatic`` only when the case was at or
  under the threshold under the routing rule it was assessed with (``strict``: the
  requested amount; ``reroute``: the amount paid); an executed amount other than
  the requested one has its edit in the trace;
* ``done``/``rejected``: no ledger row, a reject decision by a named approver;
* a finished case stays finished with the same outcome; a waiting case was never paid;
* every status as served (from the rows the summary table keeps, whatever the last step wrote, refused
  or was killed in) is the status read through LangGraph with no kept row used.

Checked after each operation:

* a refusal changed nothing: every thread's head checkpoint id, every refund
  thread's checkpoint and write counts, the ledger (with ``repeat_attempts``),
  the node log and the leases are as they were;
* what breaks a rule whatever the case's state is refused: the spoiled values
  above, an unknown thread, any change to a paid or rejected case (update, fork,
  re-run, restore), a decision on a case that is not waiting, a second start
  of a case id (also after its paid thread was deleted);
* a valid decision on a waiting case with a fresh head is taken and finishes
  it (approve/edit → paid the right amount, reject → rejected, the approver
  recorded); a valid update of a waiting case is taken; a valid new case is
  started (small: paid automatically at once; big: waiting); continuing a
  finished case changes nothing;
* no operation makes a node raise (``RunFailedError``); were one to, the thread
  would need attention with the error as its reason, which is checked before failing.

Crashes, simulated in-process (real SIGKILLs are in ``test_kill_points.py``):

* ``arm_kill(point)``: the next operation that gets to ``point`` "dies" there:
  right after a node's ``running`` row in the node log (before its body runs),
  right after its end row (its body finished, LangGraph has not saved its
  checkpoint yet), or inside ``settle`` right after the ledger's payout commit
  (the points of ``crash_child.py``). Dying is raising :class:`SimulatedKill`, a
  ``BaseException``: LangGraph's runner and ``runs._drive`` handle only
  ``Exception``, so no error write and no further checkpoint is saved, as when
  the process is killed there; the ``durability="sync"`` checkpoints written
  before are in the database, as they are on disk before a kill. The dying
  "process" writes nothing more (the node log's end row is suppressed). The one
  difference from a kill: the in-process lock and the lease are given back on
  the way out, which is what the next process does with a dead owner's lease.
  The store is then closed and a NEW store is opened on the same database, as a
  restarted process would. The thread is then ``attention``/``stopped`` (or
  unchanged), as after a real kill, and the invariants must still hold.
* ``checkpoint_after_review``: on a waiting case, writes through the compiled
  graph (``update_state(..., as_node="review")``) the checkpoint ``review``
  saves after an approval or rejection (decision, approver, time, trace line)
  before ``settle``/``reject`` ran: what a process killed between the two
  leaves. Then a restart. Only its metadata differs (``update``, not ``loop``):
  the lifecycle says "edited" rather than "stopped"; both are in the inbox, to
  be continued.
* ``restart(policy)``: a new store, possibly with the other routing policy (an
  operator restarting with ``HITL_REFUND_POLICY`` changed).

Runs 200 sequences on SQLite and 50 on PostgreSQL (``HITL_TEST_POSTGRES_URL``,
as ``scripts/test.sh`` sets it; skipped without it), each up to
:data:`STEPS_PER_SEQUENCE` rules, deterministic (``derandomize=True``, no example
database), in :data:`PARTS` tests per backend (each with a seed of its own and its
share of the sequences, so parallel workers can take one each). ``test_sequence_counts``
prints the counts and what each operation ended as (visible with ``-s``).
"""

from __future__ import annotations

import re
import tempfile
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, ClassVar
from unittest import mock

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from agents import lifecycle, nodelog, readmodel, runs, runtime, summarytable, threadindex
from agents.errors import RunFailedError, UserError
from agents.leases import live_leases
from agents.refund import ledger
from agents.refund.graph import POLICIES
from agents.refund.rules import APPROVER_MAX_LENGTH, AUTOMATIC_APPROVER, MAX_AMOUNT, RESERVED_APPROVERS, krw
from agents.refund.spec import SPEC
from agents.runtime import load_settings, open_store
from tests.reliability.sequences import SchemasAhead, sequence_settings

#: Sequences wanted per backend; hypothesis is asked for a few more, as some sequences draw no operation.
SEQUENCES_WANTED = {"sqlite": 200, "postgres": 50}
MAX_EXAMPLES = {"sqlite": 215, "postgres": 56}
#: Each backend's sequences run in this many parts, each its own test with its own seed and its share of the
#: sequences, so that parallel workers can share them.
PARTS = 2
STEPS_PER_SEQUENCE = 30
THRESHOLD = 100_000  # the default threshold; the routing rule reads it from the case's state

#: Sequences (with at least one operation) and operations run per backend and part, and what each ended as.
SEQUENCES: Counter[str] = Counter()
STEPS: Counter[str] = Counter()
OUTCOMES: dict[str, Counter[str]] = defaultdict(Counter)
RUN_FAILURES: dict[str, Counter[str]] = defaultdict(Counter)
RAN: set[str] = set()


def share(total: int, part: int) -> int:
    """A part's share of ``total`` (the first parts take the remainder), so that the parts add up to it."""
    return total // PARTS + (part < total % PARTS)


class SimulatedKill(BaseException):  # noqa: N818 - it is a kill, not an error
    """The "process" dies here: nothing after this point is written by it."""


# ---------------------------------------------------------------------------------------------
# Values drawn
# ---------------------------------------------------------------------------------------------

#: A start's fields are good, but for at most one, spoiled with a bad value (``START_SPOILS``).
#: ``None``: a new case id (``c1``, ``c2``, ... in order); or one of a few ids, maybe used already.
CASE_IDS = st.deferred(lambda: sometimes(st.sampled_from(["c1", "c2", "C.3", "c-4"])))
CUSTOMERS = st.sampled_from(["lee", "이순신", "Ana"])
REASONS = st.sampled_from(["late", "broken", "두 번 청구됨"])
START_AMOUNTS = st.one_of(
    st.sampled_from([1, 99_999, 100_000, 100_001, 500_000, MAX_AMOUNT]),
    st.integers(THRESHOLD + 1, 2_000_000),
    st.integers(1, MAX_AMOUNT),
    st.sampled_from(["500,000", "100000", " 100,001 "]),  # typed text, read as a person types it
)
#: (field, bad value) for a start. ``("case_id", None)`` stands for a non-ASCII case id, which is not
#: judged: SPEC §6 allows ids in any language, the thread-id validator today takes ASCII only.
START_SPOILS = st.sampled_from(
    [
        ("case_id", ""),
        ("case_id", "  "),
        ("case_id", "bad id"),
        ("case_id", "a/b"),
        ("case_id", "x" * 41),
        ("case_id", None),
        ("customer", ""),
        ("customer", "x" * 101),
        ("customer", "a\x00b"),
        ("reason", ""),
        ("reason", "r" * 501),
        *[
            ("amount", bad)
            for bad in (
                0,
                -5,
                MAX_AMOUNT + 1,
                10**15,
                "500,00",
                "1_0",
                "-5",
                "１０００",
                "1e5",
                "1,0,0",
                1.5,
                100_000.0,
                True,
                None,
                "",
                [1],
            )
        ],
    ]
)
#: Edited amounts, resolved against the case's requested amount when the step runs.
#: An amount in JSON (an answer, an update's values) is a JSON whole number: text and decimals are refused.
GOOD_EDITS = ["one", "half", "below", "equal", "threshold"]
BAD_EDITS = [
    "zero", "neg", "above", "over-threshold", "max", "huge", "bad-text", "bool", "fraction", "good-text", "float",
]  # fmt: skip
GOOD_APPROVERS = st.sampled_from(["kim", "이순신", "Ana", " kim "])
BAD_APPROVERS = ["", "  ", None, "automatic", " Automatic", "update_state", "x" * (APPROVER_MAX_LENGTH + 1), 5]
#: What can spoil an update: (what, value).
UPDATE_SPOILS = st.sampled_from(
    [
        ("empty", None),
        *[("extra", key) for key in ("bogus", "outcome", "paid_amount", "requested_amount")],
        *[("amount", kind) for kind in BAD_EDITS],
        *[("decision", bad) for bad in ("maybe", "", "APPROVE", None)],
        *[("approver", bad) for bad in BAD_APPROVERS],
        *[("as_node", bad) for bad in ("settle", "reject", "__copy__", "nonsense")],
    ]
)
#: What can spoil an answer: (what, value).
ANSWER_SPOILS = st.sampled_from(
    [
        *[("action", bad) for bad in ("maybe", "", None, "APPROVE")],
        *[("approver", bad) for bad in BAD_APPROVERS],
        ("amount-misplaced", None),
        *[("amount", kind) for kind in BAD_EDITS],
        ("note", "n" * 301),
        ("note", "a\x07b"),
    ]
)
NOT_AN_ANSWER = st.sampled_from(["approve", None, 5, [], '{"action": "approve", "approver": "kim"}'])
#: One draw in SOMETIMES + 1 is spoiled (a bad field, a stale expected_head, ...).
SOMETIMES = 3
#: expected_head: none given, the head the user saw (current), or an older one (stale).
HEADS = st.sampled_from([None, "current", "current", "stale"])
#: A checkpoint of the thread (index into its chain, modulo), an unknown id (-1), another thread's (-2).
PICKS = st.tuples(st.integers(0, 9), st.integers(0, 40)).map(lambda d: {8: -1, 9: -2}.get(d[0], d[1]))
KILL_POINTS = st.sampled_from(
    [
        ("before", "assess"),
        ("after", "assess"),
        ("before", "review"),
        ("after", "review"),
        ("before", "settle"),
        ("mid-settle", "settle"),
        ("after", "settle"),
        ("before", "reject"),
        ("after", "reject"),
    ]
)
#: Act on the drawn case (None), or on a case waiting for a decision (or, for an update, any case in the
#: inbox; for a continue, one needing attention): an index into them, if there is one.
WAITING_PICKS = st.tuples(st.integers(0, 3), st.integers(0, 10)).map(lambda d: None if d[0] == 0 else d[1])
GHOST_THREADS = st.sampled_from(["refund-nope", "", "bad id", "refund-c1' OR 1=1", "x" * 129, "refund-"])
UNKNOWN_CHECKPOINT = "1f000000-0000-6000-8000-000000000000"
ALWAYS_BAD_AMOUNTS = ("zero", "neg", "above", "huge", "bad-text", "bool", "fraction", "good-text", "float")


def sometimes(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """None mostly; a value of ``strategy`` one time in SOMETIMES + 1 (None is what a failure shrinks to)."""
    return st.tuples(st.integers(0, SOMETIMES), strategy).map(lambda drawn: drawn[1] if drawn[0] == SOMETIMES else None)


def edit_amount(kind: str, requested: int) -> Any:
    """The edited amount a kind stands for, for a case that asked for ``requested``."""
    return {
        "zero": 0,
        "neg": -5,
        "one": 1,
        "half": max(1, requested // 2),
        "below": requested - 1,
        "equal": requested,
        "above": requested + 1,
        "threshold": THRESHOLD,
        "over-threshold": THRESHOLD + 1,
        "max": MAX_AMOUNT,
        "huge": 10**12,
        "bad-text": "500,00",
        "good-text": f"{requested:,}",
        "float": float(requested),
        "bool": True,
        "fraction": 1.5,
    }[kind]


def amount_is_valid(kind: str, value: Any, requested: int) -> bool:
    """Whether an edit to this amount keeps the rule: a whole number from 1 up to the requested amount."""
    if kind in ALWAYS_BAD_AMOUNTS:
        return False
    return 1 <= value <= requested  # every other kind is a whole number


def approver_is_valid(value: Any) -> bool:
    """A person's name: text, not blank, at most 60 characters, not a name the agent writes itself."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 60:
        return False
    if any(unicodedata.category(char) == "Cc" for char in value.strip()):
        return False
    return value.strip().casefold() not in RESERVED_APPROVERS


def note_is_valid(value: Any) -> bool:
    text = str(value).strip()
    return len(text) <= 300 and not any(unicodedata.category(char) == "Cc" for char in text)


def answer_is_valid(answer: Any, requested: int, amount_kind: str | None) -> bool:
    """Whether a resume answer keeps every rule whatever the case's state."""
    if not isinstance(answer, dict) or answer.get("action") not in ("approve", "reject", "edit"):
        return False
    if not approver_is_valid(answer.get("approver")) or not note_is_valid(answer.get("note", "")):
        return False
    if answer["action"] == "edit":
        return amount_kind is not None and amount_is_valid(amount_kind, answer["amount"], requested)
    return "amount" not in answer


# ---------------------------------------------------------------------------------------------
# A fresh database per sequence, and the simulated kill
# ---------------------------------------------------------------------------------------------


@contextmanager
def fresh_database(backend: str, ahead: SchemasAhead | None) -> Iterator[str]:
    """A new SQLite file in a new temp folder, or a new PostgreSQL schema (``ahead``'s next)."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="refund-property-") as folder:
            yield str(Path(folder) / "checkpoints.sqlite")
        return
    assert ahead is not None
    with ahead.fresh() as url:
        yield url


@contextmanager
def kill_switch(point: tuple[str, str] | None) -> Iterator[None]:
    """While active, the process "dies" (raises :class:`SimulatedKill`) at ``point``, its first time.

    ``("before", node)``: right after the node's ``running`` row; ``("after", node)``: right
    after its end row (before LangGraph saves its checkpoint); ``("mid-settle", "settle")``:
    right after the payout's commit. After dying, no more node-log writes happen.
    """
    if point is None:
        yield
        return
    phase, node = point
    original_start, original_finish, original_pay = nodelog._start, nodelog._finish, ledger.pay
    names: dict[int, str] = {}
    dead = False

    def die() -> None:
        nonlocal dead
        dead = True
        raise SimulatedKill(f"{phase} {node}")

    def start(store: Any, agent: str, name: str, label: str, config: Any) -> int:
        row_id = original_start(store, agent, name, label, config)
        names[row_id] = name
        if phase == "before" and name == node:
            die()
        return row_id

    def finish(store: Any, row_id: int, status: str, error: str = "") -> None:
        if dead:
            return  # a killed process writes nothing more
        original_finish(store, row_id, status, error)
        if phase == "after" and names.get(row_id) == node:
            die()

    def pay(store: Any, **kwargs: Any) -> Any:
        payout = original_pay(store, **kwargs)
        if phase == "mid-settle":
            die()
        return payout

    with (
        mock.patch.object(nodelog, "_start", start),
        mock.patch.object(nodelog, "_finish", finish),
        mock.patch.object(ledger, "pay", pay),
    ):
        yield


DECISION_LINE = re.compile(r"^(review|update_state): (approve|reject)\b")


# ---------------------------------------------------------------------------------------------
# The state machine
# ---------------------------------------------------------------------------------------------


class RefundCases(RuleBasedStateMachine):
    """Refund cases on one fresh database, driven by random operations."""

    backend: ClassVar[str] = "sqlite"
    schemas: ClassVar[SchemasAhead | None] = None  # where the PostgreSQL sequences take their schemas
    run: ClassVar[str] = "sqlite part 0"  # the backend and the part: what the counts are kept under
    cases = Bundle("cases")

    def __init__(self) -> None:
        super().__init__()
        self._resources = ExitStack()
        self.location = self._resources.enter_context(fresh_database(self.backend, self.schemas))
        self.store: Any = None
        self.policy = "strict"
        self.threads: set[str] = set()  # refund threads that exist
        self.started_cases: set[str] = set()
        self.ledger_seen: dict[str, dict[str, Any]] = {}
        self.final: dict[str, str] = {}  # thread → its done outcome
        self.deleted: set[str] = set()
        self.fresh_process = True  # no operation since the store was (re)opened
        self.statuses: dict[str, lifecycle.ThreadStatus] = {}  # as of the last invariant check (before each rule)
        # A case's values by (thread, head checkpoint id): a checkpoint is never rewritten, so its values are
        # read once (for a finished case's record, and for the amount a case asked for);
        # every_status_served_is_the_one_langgraph_reads proves the served head is LangGraph's after every step.
        self.head_values: dict[tuple[str, str], dict[str, Any]] = {}
        self.kill_point: tuple[str, str] | None = None
        self.steps = 0
        self.settings: Any = None

    def teardown(self) -> None:
        try:
            if self.store is not None:
                for status in self.statuses.values():
                    self._tally(f"case at the end: {status.status} {status.outcome}".rstrip())
                self.store.close()
        finally:
            self._resources.close()
            SEQUENCES[self.run] += self.steps > 0
            STEPS[self.run] += self.steps

    # -- helpers ----------------------------------------------------------------------------

    def _open(self, policy: str | None = None) -> None:
        """Opens a new store on the database (a restarted process), closing the old one."""
        if self.store is not None:
            self.store.close()
            self.store = None
        self.policy = policy or self.policy
        self.store = open_store(self.location)
        self.fresh_process = True
        self.settings = load_settings(
            db_override=self.location, environ={"HITL_REFUND_POLICY": self.policy}, secrets={}
        )

    def _tally(self, what: str) -> None:
        OUTCOMES[self.run][what] += 1

    def _snapshot(self) -> tuple[Any, ...]:
        """Everything a refused operation must leave as it was."""
        with self.store.read() as cursor:
            counts = {t: tuple(self.store.queries.counts(cursor, t)) for t in sorted(self.threads)}
            cursor.execute("SELECT COUNT(*) FROM node_log")
            node_rows = cursor.fetchone()[0]
            cursor.execute("SELECT COUNT(*) FROM thread_leases")
            leases = cursor.fetchone()[0]
        heads = {t.thread_id: t.head_checkpoint_id for t in threadindex.list_threads(self.store)}
        return heads, counts, ledger.ledger_rows(self.store), node_rows, leases

    def _status(self, thread: str) -> lifecycle.ThreadStatus | None:
        return lifecycle.thread_status(self.store, thread)

    def _served(self) -> dict[str, lifecycle.ThreadStatus]:
        """Every refund thread's status as the lists serve it (the kept index, read again where it changed)."""
        return {s.thread_id: s for s in lifecycle.thread_statuses(self.store, "refund")}

    def _values(self, thread: str) -> dict[str, Any]:
        graph = runtime.graph(self.store, "refund", **runtime.graph_options(self.settings, "refund"))
        return dict(graph.get_state({"configurable": {"thread_id": thread}}).values)

    def _target(self, thread: str, pick: int | None, statuses: tuple[str, ...] = ("waiting",)) -> str:
        """The drawn thread, or (with ``pick``) one of the cases with one of ``statuses``, if any."""
        found = sorted(t for t, s in self.statuses.items() if s.status in statuses)
        return found[pick % len(found)] if pick is not None and found else thread

    def _paid(self, thread: str) -> bool:
        return ledger.payout_for(self.store, thread.removeprefix("refund-")) is not None

    def _head_values(self, thread: str, head: str) -> dict[str, Any]:
        """The thread's values at ``head`` (its head checkpoint): read once per head, as a checkpoint is never
        rewritten."""
        key = (thread, head)
        if key not in self.head_values:
            self.head_values[key] = self._values(thread)
        return self.head_values[key]

    def _requested(self, thread: str) -> int:
        head = readmodel.head_checkpoint_id(self.store, thread) if thread in self.threads else None
        requested = self._head_values(thread, head).get("requested_amount") if head is not None else None
        return requested if isinstance(requested, int) else 500_000

    def _chain(self, thread: str) -> list[str]:
        return [c.checkpoint_id for c in readmodel.checkpoint_chain(self.store, thread)]

    def _expected_head(self, thread: str, mode: str | None) -> tuple[str | None, bool]:
        """(expected_head to pass, whether it is stale)."""
        if mode is None or thread not in self.threads:
            return None, False
        head = readmodel.head_checkpoint_id(self.store, thread)
        if mode == "current":
            return head, False
        oldest = self._chain(thread)[0]
        return oldest, oldest != head

    def _checkpoint(self, thread: str, pick: int) -> tuple[str | None, bool]:
        """(checkpoint id to pass, whether it is foreign to the thread)."""
        if pick == -1:
            return UNKNOWN_CHECKPOINT, True
        if pick == -2:
            others = sorted(self.threads - {thread})
            return (self._chain(others[0])[0], True) if others else (UNKNOWN_CHECKPOINT, True)
        chain = self._chain(thread) if thread in self.threads else []
        return (chain[pick % len(chain)], False) if chain else (UNKNOWN_CHECKPOINT, True)

    def _act(
        self, kind: str, call: Callable[[], Any], *, thread: str | None = None, must_refuse: bool = False
    ) -> tuple[str, Any]:
        """Runs one operation; checks that a refusal changed nothing. Returns (outcome, result)."""
        self.steps += 1
        self.fresh_process = False
        point = self.kill_point
        before = self._snapshot()
        result: Any = None
        try:
            with kill_switch(point):
                result = call()
        except SimulatedKill:
            outcome = "killed"
            self.kill_point = None
            self._tally(f"kill {point[0]} {point[1]}: fired")  # type: ignore[index]
            self._open()  # a new process on the same database
        except UserError as error:
            outcome = "refused"
            assert self._snapshot() == before, f"{kind} was refused ({error}) but changed the database"
        except RunFailedError as error:
            RUN_FAILURES[self.run][f"{kind}: {type(error.error).__name__}: {error.error}"[:160]] += 1
            status = self._status(error.thread_id)
            assert status is not None and (status.status, status.reason_code) == ("attention", "error"), status
            # The rules refuse, before anything runs, every state a node could fail on: no
            # sequence of product operations may make a refund node raise.
            raise AssertionError(f"{kind} made a node raise: {error}") from error
        else:
            outcome = "ok"
        self._tally(f"{kind}: {outcome}")
        if thread is not None:  # the one-thread read says what the list read says
            alone = self._status(thread)
            assert alone == self._served().get(thread), (alone, self._served().get(thread))
            if thread in self.threads and alone is None:
                self.threads.discard(thread)  # only a delete removes a thread
                assert kind == "delete" and outcome == "ok", f"{kind} ({outcome}) removed thread {thread}"
        if must_refuse:
            assert outcome == "refused", f"{kind} should have been refused, but it ended {outcome}"
        return outcome, result

    # -- rules --------------------------------------------------------------------------------

    @initialize(policy=st.sampled_from(POLICIES))
    def choose_policy(self, policy: str) -> None:
        self._open(policy)

    @rule(
        target=cases,
        case_id=CASE_IDS,
        customer=CUSTOMERS,
        amount=START_AMOUNTS,
        reason=REASONS,
        spoil=sometimes(START_SPOILS),
    )
    def start(self, case_id: str | None, customer: str, amount: Any, reason: str, spoil: tuple[str, Any] | None) -> Any:
        """``runs.start_run``: the page's and the CLI's way to open a case."""
        if case_id is None:
            case_id = next(f"c{n}" for n in range(1, 100) if f"refund-c{n}" not in self.threads | self.deleted)
        values = {"case_id": case_id, "customer": customer, "amount": amount, "reason": reason}
        if spoil is not None:
            values[spoil[0]] = "사건1" if spoil == ("case_id", None) else spoil[1]
        case, judged = values["case_id"], spoil != ("case_id", None)
        thread = f"refund-{case}"
        existed = thread in self.threads
        paid_before = spoil is None and ledger.payout_for(self.store, case) is not None  # its thread was deleted
        must_refuse = existed or paid_before or (spoil is not None and judged)
        outcome, result = self._act(
            "start", lambda: runs.start_run(self.store, self.settings, "refund", values), must_refuse=must_refuse
        )
        if not must_refuse and judged:
            assert outcome in ("ok", "killed"), f"a valid new case {values} ended {outcome}"
        if outcome == "ok":
            requested = result.values["requested_amount"]
            if requested <= THRESHOLD:
                assert (result.status, result.outcome, result.values["approver"]) == ("done", "paid", "automatic")
                assert result.values["paid_amount"] == requested
            else:
                assert result.status == "waiting", result
        if not existed and readmodel.head_checkpoint_id(self.store, thread) is not None:
            self.threads.add(thread)
            self.started_cases.add(case)
            return thread
        return multiple()

    @rule(
        thread=cases,
        keys=st.sets(st.sampled_from(["amount", "decision", "approver"]), min_size=1),
        amount=st.sampled_from(GOOD_EDITS),
        decision=st.sampled_from(["approve", "reject", " reject "]),
        approver=GOOD_APPROVERS,
        as_node=st.sampled_from([None, "assess", "review"]),
        head=HEADS,
        pick=sometimes(PICKS),
        spoil=sometimes(UPDATE_SPOILS),
        waiting=WAITING_PICKS,
    )
    def update(
        self,
        thread: str,
        keys: set[str],
        amount: str,
        decision: str,
        approver: str,
        as_node: str | None,
        head: str | None,
        pick: int | None,
        spoil: tuple[str, Any] | None,
        waiting: int | None,
    ) -> None:
        """``runs.update_thread`` on the head, or (with ``pick``) a fork from a checkpoint of the thread."""
        thread = self._target(thread, waiting, ("waiting", "attention"))
        requested = self._requested(thread)
        drawn = {"amount": amount, "decision": decision, "approver": approver}
        if spoil is not None and spoil[0] in drawn:
            keys, drawn[spoil[0]] = keys | {spoil[0]}, spoil[1]
        if spoil is not None and spoil[0] == "as_node":
            as_node = spoil[1]
        values = {key: edit_amount(drawn[key], requested) if key == "amount" else drawn[key] for key in sorted(keys)}
        if spoil is not None and spoil[0] == "extra":
            values[spoil[1]] = "paid" if spoil[1] == "outcome" else 1
        if spoil == ("empty", None):
            values = {}
        invalid = (
            not values
            or any(key not in drawn for key in values)
            or as_node not in (None, "assess", "review")
            or ("amount" in values and not amount_is_valid(drawn["amount"], values["amount"], requested))
            or ("decision" in values and str(values["decision"]).strip() not in ("approve", "reject"))
            or ("approver" in values and not approver_is_valid(values["approver"]))
            or ("decision" in values and "approver" not in values)
            or ("approver" in values and "decision" not in values and "amount" not in values)
        )
        expected, stale = self._expected_head(thread, head)
        checkpoint, foreign = self._checkpoint(thread, pick) if pick is not None else (None, False)
        status = self.statuses.get(thread)
        done = status is not None and status.status == "done"
        must_refuse = invalid or stale or foreign or thread not in self.threads or done or self._paid(thread)
        kind = "fork" if pick is not None else "update"
        outcome, _ = self._act(
            kind,
            lambda: runs.update_thread(
                self.store,
                self.settings,
                thread,
                values,
                as_node=as_node,
                checkpoint_id=checkpoint,
                expected_head=expected,
            ),
            thread=thread,
            must_refuse=must_refuse,
        )
        if kind == "update" and not must_refuse and status is not None and status.status == "waiting":
            assert outcome != "refused", f"a valid update {values} as {as_node} of a waiting case was refused"

    @rule(thread=cases, head=HEADS, pick=sometimes(PICKS), open_case=WAITING_PICKS)
    def continue_(self, thread: str, head: str | None, pick: int | None, open_case: int | None) -> None:
        """``runs.continue_thread``: on (no ``pick``), or a re-run from a checkpoint of the thread."""
        thread = self._target(thread, open_case, ("attention",))
        expected, stale = self._expected_head(thread, head)
        checkpoint, foreign = self._checkpoint(thread, pick) if pick is not None else (None, False)
        status = self.statuses.get(thread)
        done = status is not None and status.status == "done"
        waiting = status is not None and status.status == "waiting"
        must_refuse = (
            stale
            or foreign
            or thread not in self.threads
            or (pick is not None and (done or self._paid(thread)))
            or (pick is None and waiting)
        )
        before = self._snapshot() if done else None
        kind = "rerun" if pick is not None else "continue"
        outcome, _ = self._act(
            kind,
            lambda: runs.continue_thread(
                self.store, self.settings, thread, checkpoint_id=checkpoint, expected_head=expected
            ),
            thread=thread,
            must_refuse=must_refuse,
        )
        if done and outcome == "ok":  # continuing a finished case has nothing to run and changes nothing
            assert before is not None and self._snapshot()[:3] == before[:3], "continuing a finished case changed it"

    @rule(thread=cases, pick=PICKS, head=HEADS)
    def restore(self, thread: str, pick: int, head: str | None) -> None:
        """``runs.restore_checkpoint``: a checkpoint of the thread becomes its head again (a copy)."""
        expected, stale = self._expected_head(thread, head)
        checkpoint, foreign = self._checkpoint(thread, pick)
        status = self.statuses.get(thread)
        must_refuse = (
            stale
            or foreign
            or thread not in self.threads
            or self._paid(thread)
            or (status is not None and status.status == "done")
        )
        self._act(
            "restore",
            lambda: runs.restore_checkpoint(self.store, self.settings, thread, checkpoint, expected_head=expected),
            thread=thread,
            must_refuse=must_refuse,
        )

    def _answer(
        self, thread: str, action: str, amount: str, approver: str, note: str | None, spoil: tuple[str, Any] | None
    ) -> tuple[dict[str, Any], bool]:
        """An approver's answer (good, or spoiled in one way), and whether it keeps every rule."""
        requested = self._requested(thread)
        answer: dict[str, Any] = {"action": action, "approver": approver}
        kind: str | None = amount if action == "edit" else None
        what, bad = spoil if spoil is not None else (None, None)
        if what == "action":
            answer["action"] = bad
        elif what == "approver":
            answer["approver"] = bad
        elif what == "amount":
            kind = bad
        elif what == "amount-misplaced":
            kind = None if action == "edit" else "half"  # edit without an amount; approve/reject with one
        elif what == "note":
            note = bad
        if kind is not None:
            answer["amount"] = edit_amount(kind, requested)
        if note is not None:
            answer["note"] = note
        return answer, answer_is_valid(answer, requested, kind)

    def _decision_step(
        self, kind: str, thread: str, answer: Any, valid: bool, head: str | None, call: Callable[[str | None], Any]
    ) -> None:
        expected, stale = self._expected_head(thread, head)
        status = self.statuses.get(thread)
        waiting = status is not None and status.status == "waiting"
        must_refuse = not valid or stale or not waiting
        outcome, result = self._act(kind, lambda: call(expected), thread=thread, must_refuse=must_refuse)
        if not must_refuse:  # a valid decision on a waiting case with a fresh head is taken and finishes it
            assert outcome in ("ok", "killed"), f"{kind} {answer} on a waiting case ended {outcome}"
            if outcome == "ok":
                wanted = "rejected" if answer["action"] == "reject" else "paid"
                assert (result.status, result.outcome) == ("done", wanted), result
                assert result.values["approver"] == answer["approver"].strip()
                if answer["action"] == "edit":
                    assert result.values["paid_amount"] == answer["amount"], (answer, result.values)

    @rule(
        thread=cases,
        action=st.sampled_from(["approve", "reject", "edit"]),
        amount=st.sampled_from(GOOD_EDITS),
        approver=GOOD_APPROVERS,
        note=st.sampled_from([None, "", "ok", " "]),
        head=HEADS,
        spoil=sometimes(ANSWER_SPOILS),
        waiting=WAITING_PICKS,
    )
    def decide_(
        self,
        thread: str,
        action: str,
        amount: str,
        approver: str,
        note: str | None,
        head: str | None,
        spoil: tuple[str, Any] | None,
        waiting: int | None,
    ) -> None:
        """The approver's form: ``runs.resume_from_fields`` for the refund agent (it drops empty fields)."""
        thread = self._target(thread, waiting)
        answer, valid = self._answer(thread, action, amount, approver, note, spoil)
        self._decision_step(
            "decide",
            thread,
            answer,
            valid,
            head,
            lambda expected: runs.resume_from_fields(
                self.store, self.settings, thread, answer, agent="refund", expected_head=expected
            ),
        )

    @rule(
        thread=cases,
        action=st.sampled_from(["approve", "reject", "edit"]),
        amount=st.sampled_from(GOOD_EDITS),
        approver=GOOD_APPROVERS,
        note=st.sampled_from([None, "", "ok", " "]),
        head=HEADS,
        spoil=sometimes(st.one_of(ANSWER_SPOILS, NOT_AN_ANSWER.map(lambda raw: ("raw", raw)))),
        waiting=WAITING_PICKS,
    )
    def resume(
        self,
        thread: str,
        action: str,
        amount: str,
        approver: str,
        note: str | None,
        head: str | None,
        spoil: tuple[str, Any] | None,
        waiting: int | None,
    ) -> None:
        """Raw ``runs.resume_thread`` (the generic form's JSON mode, the CLI, the API)."""
        thread = self._target(thread, waiting)
        answer, valid = self._answer(thread, action, amount, approver, note, spoil)
        if spoil is not None and spoil[0] == "raw":
            answer, valid = spoil[1], False
        self._decision_step(
            "resume",
            thread,
            answer,
            valid,
            head,
            lambda expected: runs.resume_thread(self.store, self.settings, thread, answer, expected_head=expected),
        )

    @precondition(lambda self: len(self.threads) >= 3)
    @rule(target=cases, thread=consumes(cases), head=HEADS)
    def delete(self, thread: str, head: str | None) -> Any:
        """``runs.delete_thread``; a paid case stays in the ledger and its case id stays used."""
        expected, stale = self._expected_head(thread, head)
        outcome, _ = self._act(
            "delete",
            lambda: runs.delete_thread(self.store, thread, expected_head=expected, reason="withdrawn"),
            thread=thread,
            must_refuse=stale or thread not in self.threads,
        )
        if outcome == "ok":
            self.final.pop(thread, None)
            self.deleted.add(thread)
            return multiple()
        return thread

    @precondition(lambda self: bool(self.threads))
    @rule(
        thread=GHOST_THREADS,
        op=st.sampled_from(["update", "continue", "rerun", "restore", "decide", "resume", "delete"]),
    )
    def unknown_thread(self, thread: str, op: str) -> None:
        """Every operation on an unknown or malformed thread id is refused."""
        approve = {"action": "approve", "approver": "kim"}
        calls: dict[str, Callable[[], Any]] = {
            "update": lambda: runs.update_thread(self.store, self.settings, thread, {"approver": "kim"}),
            "continue": lambda: runs.continue_thread(self.store, self.settings, thread),
            "rerun": lambda: runs.continue_thread(self.store, self.settings, thread, checkpoint_id=UNKNOWN_CHECKPOINT),
            "restore": lambda: runs.restore_checkpoint(self.store, self.settings, thread, UNKNOWN_CHECKPOINT),
            "decide": lambda: runs.resume_from_fields(self.store, self.settings, thread, approve),
            "resume": lambda: runs.resume_thread(self.store, self.settings, thread, approve),
            "delete": lambda: runs.delete_thread(self.store, thread),
        }
        self._act(f"unknown-thread {op}", calls[op], must_refuse=True)

    @precondition(lambda self: self.kill_point is None)
    @rule(point=KILL_POINTS)
    def arm_kill(self, point: tuple[str, str]) -> None:
        """The process dies at ``point`` the next time an operation gets there."""
        self.kill_point = point

    @precondition(lambda self: any(s.status == "waiting" for s in self.statuses.values()))
    @rule(pick=st.integers(0, 10), decision=st.sampled_from(["approve", "reject"]))
    def checkpoint_after_review(self, pick: int, decision: str) -> None:
        """The checkpoint ``review`` saves on a decision, before settle/reject ran; then a restart."""
        waiting = sorted(t for t, s in self.statuses.items() if s.status == "waiting")
        thread = waiting[pick % len(waiting)]
        self.steps += 1
        graph = runtime.graph(self.store, "refund", **runtime.graph_options(self.settings, "refund"))
        graph.update_state(
            runs.run_config(SPEC, thread),
            {
                "approver": "kim",
                "note": "",
                "decided_at": ledger.now_iso(),
                "decision": decision,
                "trace": [f"review: {decision} by kim"],
            },
            as_node="review",
        )
        self._open()
        self._tally("checkpoint after review: written")

    @precondition(lambda self: bool(self.threads) and not self.fresh_process)
    @rule(policy=st.sampled_from(POLICIES))
    def restart(self, policy: str) -> None:
        """A new process, possibly with the other routing policy."""
        self._open(policy)
        self._tally(f"restart: {policy}")

    # -- invariants -----------------------------------------------------------------------------

    @invariant()
    def ledger_pays_each_case_at_most_once(self) -> None:
        rows = ledger.ledger_rows(self.store)
        per_case = Counter(row["case_id"] for row in rows)
        assert all(count == 1 for count in per_case.values()), per_case
        payouts = {row["case_id"]: row for row in rows}
        for case_id, row in payouts.items():
            assert case_id in self.started_cases, f"a payout for a case never started: {row}"
            assert row["thread_id"] == f"refund-{case_id}", row
            fixed = {key: value for key, value in row.items() if key != "repeat_attempts"}
            assert self.ledger_seen.setdefault(case_id, fixed) == fixed, f"ledger row changed: {row}"
        assert set(self.ledger_seen) <= set(payouts), "a ledger row disappeared"

    @invariant()
    def every_case_is_settled_or_in_the_inbox(self) -> None:
        threads = {t.thread_id for t in threadindex.list_threads(self.store, agent="refund")}
        assert threads == self.threads, (threads, self.threads)
        with self.store.read() as cursor:
            cursor.execute("SELECT COUNT(*) FROM thread_leases")
            assert cursor.fetchone()[0] == 0, "a lease was left behind"
        inbox = {s.thread_id: s for s in lifecycle.inbox(self.store)}
        # The statuses as the list read serves them (every_status_served_is_the_one_langgraph_reads proves
        # them equal to LangGraph's own read); the one-thread read is compared with it after each operation.
        served = self._served()
        statuses: dict[str, lifecycle.ThreadStatus] = {}
        for thread in sorted(threads):
            status = served.get(thread)
            assert status is not None, thread
            case_id = thread.removeprefix("refund-")  # a case's thread is refund-<case> (start makes it so)
            payout = ledger.payout_for(self.store, case_id)
            if status.status == "done":
                # A finished case's record is checked against its state (its head checkpoint's values).
                values = self._head_values(thread, status.head_checkpoint_id)
                assert values.get("case_id") == case_id, (thread, values.get("case_id"))
                assert thread not in inbox, status
                assert status.outcome in ("paid", "rejected"), status
                if status.outcome == "paid":
                    self._check_paid(thread, values, payout)
                else:
                    self._check_rejected(thread, values, payout)
                assert self.final.setdefault(thread, status.outcome) == status.outcome, "a finished case changed"
            else:
                assert status.status in ("waiting", "attention"), status
                assert thread in inbox and inbox[thread].status == status.status, (status, inbox.get(thread))
                assert thread not in self.final, f"the finished case {thread} reopened: {status}"
                if status.status == "waiting":
                    assert payout is None, f"{thread} waits for a decision but was paid: {payout}"
            statuses[thread] = status
        self.statuses = statuses

    @invariant()
    def every_status_served_is_the_one_langgraph_reads(self) -> None:
        served = lifecycle.thread_statuses(self.store)
        # Plain functions, not mocks: making two MagicMocks on every check took about a tenth of the run.
        no_rows = mock.patch.object(summarytable, "stored_rows", lambda *args, **kwargs: ({}, set()))
        with no_rows, mock.patch.object(summarytable, "save", lambda *args, **kwargs: None):
            index = threadindex.thread_index(self.store)
            pending = {p.thread_id: p.payload for p in reversed(index.pending)}
            read = lifecycle._statuses(self.store, list(index.threads), pending, live_leases(self.store))
        assert served == read, [(s, r) for s, r in zip(served, read, strict=False) if s != r]

    def _check_paid(self, thread: str, values: dict[str, Any], payout: dict[str, Any] | None) -> None:
        assert payout is not None, (thread, values)
        requested, paid, approver = values["requested_amount"], payout["paid_amount"], payout["approver"]
        assert payout["requested_amount"] == requested and 1 <= paid <= requested, payout
        assert values.get("outcome") in ("paid", "already paid") and values.get("paid_amount") == paid, values
        assert values.get("decision") == "approve", values
        assert approver and approver == values.get("approver"), (payout, values.get("approver"))
        trace = values.get("trace", [])
        if approver == AUTOMATIC_APPROVER:
            routed_on = requested if values.get("policy", "strict") == "strict" else paid
            assert routed_on <= values["threshold"], f"paid automatically above the threshold: {payout}, {values}"
        else:
            assert approver.strip() == approver and approver.casefold() not in RESERVED_APPROVERS, payout
            self._check_decider(trace, "approve", approver, thread)
        if paid != requested:
            assert any(f"→ {krw(paid)} by " in line for line in trace), f"{thread}: edit not in trace {trace}"

    def _check_rejected(self, thread: str, values: dict[str, Any], payout: dict[str, Any] | None) -> None:
        assert payout is None, (thread, payout)
        assert values.get("outcome") == "rejected" and values.get("decision") == "reject", values
        approver = values.get("approver")
        assert isinstance(approver, str) and approver_is_valid(approver), values
        self._check_decider(values.get("trace", []), "reject", approver, thread)

    @staticmethod
    def _check_decider(trace: list[str], decision: str, approver: str, thread: str) -> None:
        """The record says who decided: the last decision line of the trace names the approver of record."""
        lines = [line for line in trace if DECISION_LINE.match(line)]
        assert lines, f"{thread}: no decision line in the trace {trace}"
        last = lines[-1]
        assert DECISION_LINE.match(last).group(2) == decision and (  # type: ignore[union-attr]
            f" by {approver}" in last or f" for {approver};" in last
        ), f"{thread}: {decision} by {approver!r} on record, but the trace's last decision says {last!r}"


# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("part", range(PARTS))
def test_random_operation_sequences_keep_the_refund_rules(backend: str, part: int) -> None:
    run = f"{backend} part {part}"
    # The class name seeds the derandomized run: each part draws sequences of its own.
    name = f"RefundCases_{backend}" + (f"_part{part}" if part else "")
    schemas = SchemasAhead() if backend == "postgres" else None
    machine = type(name, (RefundCases,), {"backend": backend, "run": run, "schemas": schemas})
    try:
        run_state_machine_as_test(
            machine,
            settings=sequence_settings(share(MAX_EXAMPLES[backend], part), STEPS_PER_SEQUENCE),
        )
    finally:
        if schemas is not None:
            schemas.close()
    RAN.add(run)


def test_sequence_counts() -> None:
    """Prints how many sequences ran per backend and part (visible with ``-s``) and that each part reached
    its share of the backend's target."""
    for run in sorted(RAN):
        outcomes = OUTCOMES[run]
        print(f"\nrefund property ({run}): {SEQUENCES[run]} sequences, {STEPS[run]} operations")
        for what, count in sorted(outcomes.items()):
            print(f"  {what}: {count}")
        for message, count in RUN_FAILURES[run].most_common():
            print(f"  RunFailedError x{count}: {message}")
        backend, part = run.split(" part ")
        assert SEQUENCES[run] >= share(SEQUENCES_WANTED[backend], int(part)), run
    if not RAN:
        pytest.skip("the property test did not run in this session")
