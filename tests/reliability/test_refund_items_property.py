"""Random sequences of operations on refunds with several items keep the item rules, on SQLite and PostgreSQL.

A hypothesis state machine (:class:`RefundItemCases`) starts cases with 1 to 4 items (some at or under the
threshold, paid at once; some above it, each asking in its own task) and answers them through
``runs.resume_thread`` as the CLI, the API and the forms do: one question by its interrupt id
(``--interrupt``), every waiting one with the same answer (``--all``), or a plain answer (refused while
several wait); sometimes with the head the user saw and an interrupt id already answered (a stale form,
refused); sometimes with an edit above the item's own amount (refused); and in batches across cases
(``agents.batch.decide_items``, the ``decide`` command's and ``POST /decisions``' path), whose items may
name whole threads, questions waiting or already answered, or the same question twice: each item is
reported on its own, and one already answered reads ``already decided``. An operation may be "killed"
right after an item's payout commits, before its task's result is saved (``SimulatedKill``, a
``BaseException``, as in ``test_refund_property.py``); the store is then opened afresh, as by a restarted
process.

Checked after every step: at most one item-ledger row per (case, item), for an item of a started case, paying
1 to that item's amount, never changed (but for ``repeat_attempts``) and never gone; every case with items is
``done`` with an outcome per item that agrees with the item ledger (paid items one row each, rejected ones
none), or waits in the inbox with each of its items either paid or asked (``waiting (N of M items)``); no
lease is left behind. A refusal changes nothing.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, ClassVar
from unittest import mock

from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from agents import lifecycle, readmodel, runs
from agents.batch import decide_items
from agents.errors import UserError
from agents.refund import item_ledger, items
from agents.runtime import load_settings, open_store
from tests.postgres_schemas import set_up_schema
from tests.reliability.sequences import sequence_settings

MAX_EXAMPLES = {"sqlite": 60, "postgres": 15}
STEPS_PER_SEQUENCE = 20
THRESHOLD = 100_000
ITEM_AMOUNTS = st.sampled_from([1, 80_000, 100_000, 100_001, 300_000, 2_000_000])
OUTCOMES: Counter[str] = Counter()


class SimulatedKill(BaseException):  # noqa: N818 - it is a kill, not an error
    """The "process" dies here: nothing after this point is written by it."""


@contextmanager
def fresh_database(backend: str) -> Iterator[str]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="refund-items-property-") as folder:
            yield str(Path(folder) / "checkpoints.sqlite")
        return
    with set_up_schema() as url:  # its tables made, as a first start leaves them
        yield url


@contextmanager
def killed_after_payout(armed: bool) -> Iterator[None]:
    """While ``armed``, the first item payout commits and then the process dies (before its result is saved)."""
    if not armed:
        yield
        return
    original = items.pay_item

    def pay(store: Any, **kwargs: Any) -> Any:
        original(store, **kwargs)
        raise SimulatedKill("after an item's payout")

    with mock.patch.object(items, "pay_item", pay):
        yield


class RefundItemCases(RuleBasedStateMachine):
    """Cases with items on one fresh database, answered at random by interrupt id, all at once, or plainly."""

    backend: ClassVar[str] = "sqlite"

    def __init__(self) -> None:
        super().__init__()
        self._resources = ExitStack()
        self.location = self._resources.enter_context(fresh_database(self.backend))
        self.store: Any = None
        self.settings: Any = None
        self.cases: dict[str, dict[str, int]] = {}  # thread → item → requested amount
        self.answered: dict[str, set[str]] = {}  # thread → interrupt ids answered
        self.rows_seen: dict[tuple[str, str], dict[str, Any]] = {}
        # A finished case's values by (thread, head checkpoint id): a checkpoint is never rewritten, so the
        # values at a head are read once, and read again whenever the head served is another one.
        self.head_values: dict[tuple[str, str], dict[str, Any]] = {}

    def teardown(self) -> None:
        try:
            if self.store is not None:
                self.store.close()
        finally:
            self._resources.close()

    def _open(self) -> None:
        if self.store is not None:
            self.store.close()
        self.store = open_store(self.location)
        self.settings = load_settings(db_override=self.location, secrets={})

    def _waiting(self, thread: str) -> list[tuple[str, dict[str, Any]]]:
        snapshot = runs.thread_snapshot(self.store, self.settings, thread)[1]
        return [(str(i.id), i.value) for i in snapshot.interrupts]

    def _finished_values(self, thread: str, head: str) -> dict[str, Any]:
        """A finished case's values at its head, as ``runs.current_result`` reads them (once per head)."""
        if (thread, head) not in self.head_values:
            result = runs.current_result(self.store, self.settings, thread)
            assert result.head_checkpoint_id == head, (thread, head, result.head_checkpoint_id)
            self.head_values[(thread, head)] = result.values
        return self.head_values[(thread, head)]

    def _state(self) -> tuple[Any, ...]:
        heads = {thread: readmodel.head_checkpoint_id(self.store, thread) for thread in self.cases}
        waiting = {thread: self._waiting(thread) for thread in self.cases}
        return heads, waiting, item_ledger.item_payouts(self.store)

    def _act(self, kind: str, call: Any, *, must_refuse: bool, armed: bool = False) -> str:
        before = self._state()
        try:
            with killed_after_payout(armed):
                call()
        except SimulatedKill:
            outcome = "killed"
            self._open()  # a new process on the same database
        except UserError as error:
            outcome = "refused"
            assert self._state() == before, f"{kind} was refused ({error}) but changed the database"
        else:
            outcome = "ok"
        OUTCOMES[f"{self.backend} {kind}: {outcome}"] += 1
        if must_refuse:
            assert outcome == "refused", f"{kind} should have been refused, but it ended {outcome}"
        return outcome

    @initialize()
    def open_database(self) -> None:
        self._open()

    @precondition(lambda self: len(self.cases) < 4)
    @rule(amounts=st.lists(ITEM_AMOUNTS, min_size=1, max_size=4))
    def start(self, amounts: list[int]) -> None:
        case = f"m{len(self.cases) + 1}"
        entries = [{"item": f"I{n}", "amount": amount} for n, amount in enumerate(amounts)]
        values = {"case_id": case, "customer": "kim", "reason": "r", "items": entries}
        result = runs.start_run(self.store, self.settings, "refund", values)
        self.cases[result.thread_id] = {entry["item"]: entry["amount"] for entry in entries}
        self.answered[result.thread_id] = set()
        asked = sum(amount > THRESHOLD for amount in amounts)
        assert len(result.interrupts) == asked and result.status == ("waiting" if asked else "done"), result
        OUTCOMES[f"{self.backend} start: {result.status}"] += 1

    @precondition(lambda self: bool(self.cases))
    @rule(
        pick=st.integers(0, 10),
        which=st.integers(0, 10),
        via=st.sampled_from(["interrupt", "interrupt", "all", "plain"]),
        action=st.sampled_from(["approve", "reject", "edit", "edit-too-much"]),
        stale=st.integers(0, 3),
        kill=st.integers(0, 4),
    )
    def answer(self, pick: int, which: int, via: str, action: str, stale: int, kill: int) -> None:
        threads = sorted(self.cases)
        thread = threads[pick % len(threads)]
        waiting = self._waiting(thread)
        old = sorted(self.answered[thread] - {interrupt for interrupt, _ in waiting})
        use_stale = stale == 0 and bool(old) and via == "interrupt"
        target: str | None = None
        asked: list[dict[str, Any]] = [question for _, question in waiting]
        if via == "interrupt" and use_stale:
            target = old[which % len(old)]
        elif via == "interrupt" and waiting:
            target, question = waiting[which % len(waiting)]
            asked = [question]
        answer: dict[str, Any] = {"action": "edit" if action.startswith("edit") else action, "approver": "lee"}
        if action == "edit":
            answer["amount"] = 1
        elif action == "edit-too-much":
            answer["amount"] = max((q["requested_amount"] for q in asked), default=THRESHOLD) + 1
        head = readmodel.head_checkpoint_id(self.store, thread)
        must_refuse = not waiting or use_stale or (via == "plain" and len(waiting) > 1) or (action == "edit-too-much")
        outcome = self._act(
            f"answer {via}{' stale' if use_stale else ''} {action}",
            lambda: runs.resume_thread(
                self.store,
                self.settings,
                thread,
                answer,
                interrupt_id=target,
                every=via == "all",
                expected_head=head,
            ),
            must_refuse=must_refuse,
            armed=kill == 0 and not must_refuse,
        )
        if outcome == "ok":
            answered = {target} if target else {interrupt for interrupt, _ in waiting}
            self.answered[thread] |= answered

    @precondition(lambda self: bool(self.cases))
    @rule(
        picks=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10), st.booleans()), min_size=1, max_size=5),
        action=st.sampled_from(["approve", "reject"]),
        kill=st.integers(0, 4),
    )
    def batch(self, picks: list[tuple[int, int, bool]], action: str, kill: int) -> None:
        threads = sorted(self.cases)
        waiting = {thread: [interrupt for interrupt, _ in self._waiting(thread)] for thread in threads}
        chosen: list[str] = []
        for pick, which, whole in picks:
            thread = threads[pick % len(threads)]
            known = sorted(set(waiting[thread]) | self.answered[thread])
            chosen.append(thread if whole or not known else f"{thread}:{known[which % len(known)]}")
        answered_before = {thread: set(ids) for thread, ids in self.answered.items()}
        try:
            with killed_after_payout(kill == 0):
                done = decide_items(self.store, self.settings, chosen, {"action": action, "approver": "lee"})
        except SimulatedKill:
            OUTCOMES[f"{self.backend} batch: killed"] += 1
            self._open()  # a new process on the same database: the rest of the batch was never tried
            return
        assert [d.item for d in done] == chosen and len({d.batch_id for d in done}) == 1
        for decided in done:
            OUTCOMES[f"{self.backend} batch {action}: {decided.result}"] += 1
            # ``running``: a kill in an item's task of this run's step, which ended without its result saved
            assert decided.result in ("paid", "rejected", "waiting", "refused", "already decided", "running"), decided
            if decided.interrupt_id and decided.interrupt_id in answered_before[decided.thread_id]:
                assert decided.result == "already decided", decided
            if decided.result in ("paid", "rejected", "waiting"):
                ids = [decided.interrupt_id] if decided.interrupt_id else waiting[decided.thread_id][:1]
                self.answered[decided.thread_id] |= set(ids)

    @invariant()
    def each_item_is_paid_at_most_once_within_its_amount(self) -> None:
        if self.store is None:
            return
        rows = item_ledger.item_payouts(self.store)
        keys = Counter((row["case_id"], row["item"]) for row in rows)
        assert all(count == 1 for count in keys.values()), keys
        for row in rows:
            thread = f"refund-{row['case_id']}"
            assert thread in self.cases and row["item"] in self.cases[thread], row
            assert 1 <= row["paid_amount"] <= self.cases[thread][row["item"]] == row["requested_amount"], row
            fixed = {key: value for key, value in row.items() if key != "repeat_attempts"}
            assert self.rows_seen.setdefault((row["case_id"], row["item"]), fixed) == fixed, "an item row changed"
        assert set(self.rows_seen) <= set(keys), "an item row disappeared"

    @invariant()
    def every_item_is_decided_or_asked_and_every_case_done_or_in_the_inbox(self) -> None:
        if self.store is None:
            return
        with self.store.read() as cursor:
            cursor.execute("SELECT COUNT(*) FROM thread_leases")
            assert cursor.fetchone()[0] == 0, "a lease was left behind"
        inbox = {s.thread_id: s for s in lifecycle.inbox(self.store)}
        for thread, amounts in self.cases.items():
            status = lifecycle.thread_status(self.store, thread)
            assert status is not None, thread
            paid = {row["item"]: row for row in item_ledger.item_payouts(self.store, thread.removeprefix("refund-"))}
            if status.status == "done":
                assert thread not in inbox and status.outcome in ("paid", "rejected", "partly paid"), status
                values = self._finished_values(thread, status.head_checkpoint_id)
                results = {r["item"]: r for r in values["item_results"]}
                assert set(results) == set(amounts), results
                for item, result in results.items():
                    if result["outcome"] == "rejected":
                        assert item not in paid, (item, result, paid)
                    else:
                        assert paid[item]["paid_amount"] == result["paid_amount"], (item, result, paid)
                continue
            assert status.status == "waiting" and thread in inbox, status
            snapshot = runs.thread_snapshot(self.store, self.settings, thread)[1]  # one read for both sets
            asked = {interrupt.value["item"] for interrupt in snapshot.interrupts}
            decided = {  # tasks of the waiting step that finished: their results are saved against its checkpoint
                result["item"]
                for task in snapshot.tasks
                if isinstance(task.result, dict)
                for result in task.result.get("item_results", [])
            }
            undecided = {item for item in amounts if item not in paid and item not in decided}
            assert undecided <= asked, f"{thread}: {undecided - asked} neither decided nor asked"
            assert not asked & decided, f"{thread}: {asked & decided} decided and still asked"
            # "1 of N items" too: the count never vanishes while a case of several items waits; one of one is none
            assert status.waiting_count == (len(asked) if len(amounts) > 1 else 0), status


def test_random_item_sequences_keep_the_item_rules(backend: str) -> None:
    machine = type(f"RefundItemCases_{backend}", (RefundItemCases,), {"backend": backend})
    run_state_machine_as_test(
        machine,
        settings=sequence_settings(MAX_EXAMPLES[backend], STEPS_PER_SEQUENCE),
    )
    print(f"\nrefund items property ({backend}):")
    for what, count in sorted(OUTCOMES.items()):
        if what.startswith(backend):
            print(f"  {what}: {count}")
    assert OUTCOMES[f"{backend} answer interrupt approve: ok"] > 0
    assert OUTCOMES[f"{backend} batch approve: paid"] + OUTCOMES[f"{backend} batch approve: waiting"] > 0
