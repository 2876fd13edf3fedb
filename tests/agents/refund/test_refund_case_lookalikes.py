"""A case id is one case however it is written, on both backends.

``C1``, ``c1``, a fullwidth ``Ｃ1`` and a Cyrillic ``С1`` are one case (``agents.names.id_key``: case, width and
look-alike letters folded), while ids that differ by a separator, a digit or a character of their own script are
two (``C-1`` and ``C1``, ``C1`` and ``Cl``, ``李`` and ``里``): a start of a look-alike of a case a thread
holds, or that was paid (even after its thread was deleted, even in a database an earlier release wrote), is
refused naming that case and its thread, and writes nothing; the case keeps its id as typed. Two items of one
request that read alike are refused naming both. Two processes starting ``R<n>`` and ``r<n>`` at once make one
case of each pair (a barrier on the pipes, no sleeping).
"""

from __future__ import annotations

import uuid

import pytest

from agents import deletion
from agents.db import Store
from agents.errors import InputError
from agents.refund import cases, item_ledger, ledger
from agents.runtime import open_store
from tests.agents.refund.test_refund_case_threads import CHILD, approve, forget_cases_table, start
from tests.factories import released_together

pytestmark = pytest.mark.usefixtures("backend")

#: A case's id, and the same id as another keyboard types it: lower case, fullwidth, Cyrillic ``С``.
LOOKALIKES = ("c1", "Ｃ1", "С1")


def case_rows(store: Store) -> list[tuple[str, str]]:
    with store.read() as cursor:
        cursor.execute("SELECT case_id, thread_id FROM refund_cases ORDER BY case_id")
        return [(str(case), str(thread)) for case, thread in cursor.fetchall()]


def cli_args(case: str, *more: str) -> list[str]:
    return ["run", "refund", "--case", case, "--customer", "k", "--amount", "500000", "--reason", "r", *more]


def test_the_cli_refuses_a_case_id_written_another_way_naming_the_case_and_its_thread(run_cli, store):
    assert run_cli(*cli_args("C1")).code == 0
    for lookalike in LOOKALIKES:
        refused = run_cli(*cli_args(lookalike))
        assert refused.code == 2, (lookalike, refused)
        assert "case_id" in refused.err and f"{lookalike!r}" in refused.err
        assert "'C1'" in refused.err and "'refund-C1'" in refused.err, refused.err
    korean = run_cli("--lang", "ko", *cli_args("c1", "--thread", "elsewhere"))
    assert korean.code == 2 and "'C1'과 같은 번호로 읽힙니다(스레드 'refund-C1')" in korean.err, korean.err
    assert case_rows(store) == [("C1", "refund-C1")]  # nothing written: no thread, no claim
    assert [row.thread_id for row in ledger.audit_rows(store)] == ["refund-C1"]
    threads = run_cli("threads", "--agent", "refund", "--json")
    assert threads.code == 0 and "refund-c1" not in threads.out and "elsewhere" not in threads.out


def test_the_case_keeps_its_id_as_typed_and_an_unrelated_id_starts(store, settings):
    assert start(store, settings, "Ｃ7").values["case_id"] == "Ｃ7"  # shown and keyed as typed
    assert start(store, settings, "C8").interrupts
    with pytest.raises(InputError) as refused:
        start(store, settings, "c7", uuid.uuid4().hex)
    assert refused.value.field == "case_id" and "'Ｃ7'" in str(refused.value) and "'refund-Ｃ7'" in str(refused.value)


@pytest.mark.parametrize(
    ("first", "second"),
    [("C1", "C-1"), ("C1", "Cl"), ("C10", "C1O"), ("2024-1-11", "2024-11-1"), ("李", "里"), ("cafe", "café")],
)
def test_ids_that_differ_by_a_separator_a_digit_or_a_character_of_their_script_are_two_cases(
    store, settings, first, second
):
    for case in (first, second):
        assert start(store, settings, case).status == "waiting", case
    assert sorted(case for case, _thread in case_rows(store)) == sorted((first, second))


def test_a_lookalike_of_a_paid_case_is_refused_after_its_thread_was_deleted(store, settings):
    thread = uuid.uuid4().hex
    start(store, settings, "P1", thread)
    assert approve(store, settings, thread).values["outcome"] == "paid"
    deletion.delete_thread(store, thread)
    start(store, settings, "X1", thread)  # its thread id holds another case now: its claim row is gone
    assert ("P1", thread) not in case_rows(store)
    with pytest.raises(InputError) as refused:
        start(store, settings, "p1")
    assert refused.value.field == "case_id"
    assert f"'P1', which was already paid (thread {thread!r})" in str(refused.value)
    assert [row["case_id"] for row in ledger.ledger_rows(store)] == ["P1"]


def test_a_lookalike_of_a_case_paid_elsewhere_on_the_shared_ledger_is_refused(store, settings):
    # A case langgraph dev paid: its row is in this ledger, its thread and claim are not in this database.
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO refund_item_ledger (case_id, item, thread_id, customer, requested_amount, paid_amount,"
            " approver, paid_at) VALUES ('E1', 'A', 'dev-thread', 'k', 300000, 300000, 'kim', '2024-01-01')"
        )
    assert item_ledger.case_has_item_payouts(store, "E1")
    with pytest.raises(InputError) as refused:
        start(store, settings, "е1")  # a Cyrillic е
    assert "'E1', which was already paid (thread 'dev-thread')" in str(refused.value)


def test_a_lookalike_of_a_deleted_unpaid_case_starts_as_the_case_itself_would(store, settings):
    start(store, settings, "D1")
    deletion.delete_thread(store, "refund-D1", reason="duplicate request")
    assert start(store, settings, "d1").interrupts
    with pytest.raises(InputError) as refused:  # now d1 holds the case, under either spelling
        start(store, settings, "D1", uuid.uuid4().hex)
    assert "'refund-d1'" in str(refused.value)


def test_a_database_of_the_earlier_release_is_compared_folded_with_no_migration(store, settings, db_location, backend):
    start(store, settings, "OLD-1", "refund-OLD-1")
    forget_cases_table(store, backend)
    store.close()
    reopened = open_store(db_location)
    try:
        with pytest.raises(InputError) as refused:
            start(reopened, settings, "old-1", uuid.uuid4().hex)
        assert "'OLD-1'" in str(refused.value) and "'refund-OLD-1'" in str(refused.value)
    finally:
        reopened.close()


@pytest.mark.parametrize(("first", "second"), [("A", "a"), ("A", "Α"), ("A-1", "Ａ-1")])
def test_two_items_of_one_request_that_read_alike_are_refused_naming_both(run_cli, store, first, second):
    items = f'[{{"item": "{first}", "amount": 300000}}, {{"item": "{second}", "amount": 200000}}]'
    refused = run_cli("run", "refund", "--case", "I1", "--customer", "k", "--reason", "r", "--items", items)
    assert refused.code == 2 and "items" in refused.err
    assert f"items {first!r} and {second!r} read as one item" in refused.err, refused.err
    assert case_rows(store) == [] and item_ledger.item_payouts(store) == []


@pytest.mark.slow
def test_two_processes_starting_lookalike_ids_at_once_make_one_case_of_each_pair(store, settings, db_location):
    upper, lower = [f"R{n}" for n in range(12)], [f"r{n}" for n in range(12)]
    results = released_together(CHILD, [[db_location, "a", *upper], [db_location, "b", *lower]])
    for one, other in zip(upper, lower, strict=True):
        codes = sorted([results[0][one][0], results[1][other][0]])
        assert codes == [0, 2], (one, results[0][one], results[1][other])
        if results[0][one][0] == 0:
            winner, loser_err = one, results[1][other][1]
        else:
            winner, loser_err = other, results[0][one][1]
        thread = f"{'a' if winner == one else 'b'}-{winner}"
        assert "case_id" in loser_err and f"{winner!r}" in loser_err and f"{thread!r}" in loser_err, loser_err
        assert cases.case_of_thread(store, thread) == winner
        assert approve(store, settings, thread).values["outcome"] == "paid"
    held = {case for case, _ in case_rows(store)}
    assert len(held) == 12 and all((f"R{n}" in held) != (f"r{n}" in held) for n in range(12))
    assert sorted(row["case_id"] for row in ledger.ledger_rows(store)) == sorted(held)  # one payout each
