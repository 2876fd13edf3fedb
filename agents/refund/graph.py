"""The refund agent's graph.

``assess`` → policy route → ``review`` (a human decides; above the threshold) or
``settle`` (at or under it) → ``settle`` or ``reject`` → end. A request with several items fans out
instead: ``assess`` → one ``item`` task per item (``agents.refund.items``) → ``finish_items`` → end.

Why it is shaped this way:

* Nothing irreversible happens before ``interrupt()``: ``review`` only reads
  and returns state. A node that interrupts runs again from its start on
  resume, so a payout there could happen twice. The payout is in ``settle``,
  which writes to the ledger with a unique key per case, so even ``settle``
  running twice (a crash between the payout and the checkpoint, a re-run from
  an older checkpoint) pays once and reports "already paid" the second time.
* Two ways for a human to act. (1) Resume ``review`` with an answer
  ``{"action": "approve" | "reject" | "edit", "amount", "approver", "note"}``;
  ``edit`` changes the amount and approves. (2) ``update_state`` with
  ``{"amount": ...}`` and/or ``{"decision": ...}``, then continue with no
  input. ``update_state`` counts as a write by the last node that ran
  (``assess`` while the case waits), so the route after ``assess`` is
  evaluated again and ``review`` starts afresh. ``review`` therefore first
  looks for a decision already in the state and, when there is one, records
  it instead of asking again. An amount set by ``update_state`` is not seen by
  any node when it is written, so every later node compares ``amount`` with
  ``recorded_amount`` and appends the edit to the trace
  ("amount 500,000 → 50,000 by kim").
* An answer that was not checked before the run (LangGraph's own tooling checks nothing) and is refused
  (no approver, the agent's own name, four eyes, an edit out of range) is not taken: ``review`` asks
  again with the reason in the question's ``error`` (:func:`agents.refund.asking.ask`). LangGraph
  keeps no refused answer, so the next answer is the one acted on and the case never needs attention
  for a wrong answer.
* The routing policy: ``strict`` (default) routes on ``requested_amount``, so
  an edit can never move a case off the approval path; ``reroute`` routes on
  ``amount``, LangGraph's plain behaviour, so a 500,000 → 50,000 edit by
  ``update_state`` sends the case down the automatic path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Send

from agents.common import node_decorator, require_checkpointer, run_language
from agents.db import Store
from agents.errors import InputError
from agents.identity import actor_of, batch_of
from agents.refund import items, ledger
from agents.refund.asking import ask
from agents.refund.rules import (
    ACTIONS,
    AUTOMATIC_APPROVER,
    DEFAULT_POLICY,
    DEFAULT_THRESHOLD,
    POLICIES,
    case_id_problem,
    check_items,
    krw,
    recorded_approver_problem,
    requested_amount_problem,
    signed_decision,
)
from agents.refund.state import RefundInput, RefundState
from agents.refund.strings import STRINGS
from agents.refund.words import amount_line, decision_word, question_params
from agents.texts import DEFAULT_LANGUAGE, LANGUAGE_METADATA_KEY, say

AGENT_NAME = ledger.AGENT_NAME


def edit_lines(state: RefundState, lang: str = DEFAULT_LANGUAGE) -> tuple[list[str], dict[str, Any]]:
    """Trace lines for an amount changed by ``update_state`` since the trace last noted it.

    Returns:
        The lines to append and the ``recorded_amount`` update (both empty when nothing changed).
    """
    amount, recorded = state.get("amount"), state.get("recorded_amount")
    if amount is None or recorded is None or amount == recorded:
        return [], {}
    line = amount_line(recorded, amount, state.get("approver"), lang, by_update=True)
    return [line], {"recorded_amount": amount}


def make_assess(
    threshold: int, policy: str, store: Store | None = None
) -> Callable[[RefundInput, RunnableConfig], dict[str, Any]]:
    """The ``assess`` node for a threshold and a policy; with a ``store``, it records the policy there too."""

    def assess(state: RefundInput, config: RunnableConfig) -> dict[str, Any]:
        """Opens the case: the amount to pay starts as the amount requested. Nothing is paid here."""
        lang, amount = run_language(config), state["requested_amount"]
        # A start on LangGraph's own tooling checks nothing: the node refuses what no form would take.
        if problem := case_id_problem(state.get("case_id")) or requested_amount_problem(amount):
            raise ValueError(f"case {state.get('case_id')!r}: {problem}")
        if state.get("items") is not None:  # as a form takes them, adding up to the amount requested
            checked = check_items(state.get("items"))
            if checked != state.get("items") or sum(entry["amount"] for entry in checked) != amount:
                raise ValueError(f"case {state.get('case_id')!r}: items that do not add up to the requested amount")
        if store is not None:  # what the route and settle trust: update_state runs no node, so cannot write it
            ledger.record_assessment(store, str(config["configurable"]["thread_id"]), policy)
        items = state.get("items")
        if items:
            line = say(
                STRINGS,
                "refund.say.assess_items",
                lang,
                count=len(items),
                requested=krw(amount),
                threshold=krw(threshold),
            )
            return {
                "amount": amount,
                "recorded_amount": amount,
                "threshold": threshold,
                "policy": policy,
                "trace": [line],
            }
        needs = say(STRINGS, "refund.say.needs_human" if amount > threshold else "refund.say.automatic", lang)
        line = say(
            STRINGS,
            "refund.say.assess",
            lang,
            requested=krw(amount),
            threshold=krw(threshold),
            needs=needs,
            policy=policy,
        )
        return {"amount": amount, "recorded_amount": amount, "threshold": threshold, "policy": policy, "trace": [line]}

    return assess


def case_policy(store: Store | None, config: RunnableConfig, state: RefundState, policy: str) -> str:
    """The policy a case is routed and settled by: the one its last ``assess`` run recorded.

    With a database, the record there (``ledger.assessed_policy``): ``update_state`` runs no node, so it
    cannot write it, where it can write the state's ``policy`` (on a checkpoint from before ``assess``,
    the key's first write). A case no ``assess`` run recorded (one of an older release) is routed by
    this process's ``policy``. Without a database (a graph built with no store), by the state's.
    """
    if store is None:
        return str(state.get("policy", DEFAULT_POLICY))
    return ledger.assessed_policy(store, str(config["configurable"]["thread_id"])) or policy


def make_route_after_assess(
    policy: str, threshold: int = DEFAULT_THRESHOLD, store: Store | None = None
) -> Callable[[RefundState, RunnableConfig], Literal["review", "settle"] | list[Send]]:
    """The policy route, evaluated after ``assess`` and again after every ``update_state`` as ``assess``.

    ``policy`` is this process's setting, which ``assess`` records; the route reads the record
    (:func:`case_policy`), so a case keeps the policy it was assessed under when the setting changes. The
    amount is compared with :func:`case_threshold`, which a threshold written into the state cannot raise.

    A decision already in the state (set by ``update_state``) always goes to ``review``, which records
    it and routes it: a rejection must reach ``reject`` even when the amount would settle automatically.
    """
    if policy not in POLICIES:
        raise InputError("HITL_REFUND_POLICY", f"must be one of {', '.join(POLICIES)}; got {policy!r}")

    def route_after_assess(state: RefundState, config: RunnableConfig) -> Literal["review", "settle"] | list[Send]:
        if state.get("items"):  # one task per item, each decided on its own
            return items.item_tasks(state, threshold)
        if state.get("decision"):  # a decision set by update_state is recorded by review, then routed
            return "review"
        # A case is routed by the policy it was assessed under, as ``settle`` checks it: a process
        # restarted with the other policy must not settle what settle refuses.
        strict = case_policy(store, config, state, policy) == "strict"
        routed_on = state["requested_amount"] if strict else state["amount"]
        return "review" if routed_on > case_threshold(state, threshold) else "settle"

    return route_after_assess


def question(payload: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """The approver's question about a case (``case_id``, ``customer``, ``amount``, ``requested_amount``)."""
    return say(STRINGS, "refund.say.question", lang, **question_params(payload))


def review(state: RefundState, config: RunnableConfig) -> dict[str, Any]:
    """Asks an approver (``interrupt()``), or records a decision already set by ``update_state``.

    Runs again from its start on resume; it only returns state, so running twice is harmless.
    A signed-in approver is recorded by identity (email, name, role) and checked by
    ``agents.refund.decisions`` (``agents.runs`` checks first, once; this node's guard checks an answer
    only when it came another way, e.g. LangGraph's own tooling). An answer the guard or the edit's
    amount check refuses is not taken: the question is asked again with the reason in its ``error``
    (:func:`agents.refund.asking.ask`), so the case keeps waiting for a correct answer.
    """
    actor = actor_of(config)
    lang = run_language(config)
    lines, recorded = edit_lines(state, lang)
    decided = state.get("decision")
    if decided in ("approve", "reject"):
        who = state.get("approver")
        if problem := recorded_approver_problem(state, decided):  # the node raises: the case needs attention
            raise ValueError(f"case {state['case_id']}: {problem}")
        word = decision_word(decided, lang)
        lines.append(say(STRINGS, "refund.say.recorded", lang, decision=word, approver=who))
        signed = signed_decision(actor) if who == actor.email else {}
        return {**recorded, **signed, "decided_at": state.get("decided_at") or ledger.now_iso(), "trace": lines}
    payload = {
        "question": question(dict(state), lang),
        "case_id": state["case_id"],
        "customer": state["customer"],
        "reason": state["reason"],
        "requested_amount": state["requested_amount"],
        "amount": state["amount"],
        "threshold": state.get("threshold"),  # none on a checkpoint from before assess
        "actions": list(ACTIONS),
    }
    answer = ask(payload, dict(state), actor, config, lang).to_answer()
    approver = answer["approver"] if actor.local else actor.email
    update: dict[str, Any] = {
        **signed_decision(actor),
        "approver": approver,
        "note": answer.get("note") or "",
        "decided_at": ledger.now_iso(),
        **recorded,
    }
    if batch := batch_of(config):
        update["batch_id"] = batch
    if answer["action"] == "edit":
        new_amount = answer["amount"]  # checked against the requested amount by ``ask``
        lines.append(amount_line(state["amount"], new_amount, approver, lang, by_update=False))
        update.update(amount=new_amount, recorded_amount=new_amount)
    decision = "reject" if answer["action"] == "reject" else "approve"
    note = say(STRINGS, "refund.say.note", lang, note=answer["note"]) if answer.get("note") else ""
    note += say(STRINGS, "refund.say.batch", lang, batch=batch) if batch else ""
    word = decision_word(decision, lang)
    lines.append(say(STRINGS, "refund.say.review", lang, decision=word, approver=approver, note=note))
    return {**update, "decision": decision, "trace": lines}


def route_after_review(state: RefundState) -> Literal["settle", "reject", "review"]:
    """Approve → ``settle``, reject → ``reject``; no decision yet (an update as ``review``) → ask again."""
    decision = state.get("decision")
    if decision == "approve":
        return "settle"
    if decision == "reject":
        return "reject"
    if decision is None:
        return "review"
    raise ValueError(f"unexpected decision {decision!r}")


def make_settle(
    store: Store | None, threshold: int = DEFAULT_THRESHOLD, policy: str = DEFAULT_POLICY
) -> Callable[[RefundState, RunnableConfig], dict[str, Any]]:
    """The ``settle`` node over a ledger in ``store``, in a process whose threshold and policy these are."""

    def settle(state: RefundState, config: RunnableConfig) -> dict[str, Any]:
        """Pays the case once (the ledger's unique key); a repeated attempt is reported, not paid."""
        if store is None:
            raise RuntimeError("settle needs the database that holds the ledger (build_graph(store=...))")
        lang = run_language(config)
        lines, recorded = edit_lines(state, lang)
        used = case_policy(store, config, state, policy)
        approver = _settling_approver(state, threshold, used)
        payout = ledger.pay(
            store,
            case_id=state["case_id"],
            thread_id=str(config["configurable"]["thread_id"]),
            customer=state["customer"],
            requested_amount=state["requested_amount"],
            amount=state["amount"],
            approver=approver,
        )
        paid, requested = krw(payout.paid_amount), krw(payout.requested_amount)
        if payout.created and approver == AUTOMATIC_APPROVER:
            limit = krw(case_threshold(state, threshold))
            key, params = "refund.say.paid_automatic", {"threshold": limit, "policy": used}
        elif payout.created:
            key, params = "refund.say.paid", {"approver": approver}
        else:
            key, params = "refund.say.already_paid", {"paid_at": payout.paid_at}
        lines.append(say(STRINGS, key, lang, paid=paid, requested=requested, **params))
        update = {
            **recorded,
            "outcome": "paid" if payout.created else "already paid",
            "paid_amount": payout.paid_amount,
            "paid_at": payout.paid_at,
            "trace": lines,
        }
        if not state.get("decision"):
            update.update(decision="approve", approver=approver, decided_at=payout.paid_at)
        return update

    return settle


def _settling_approver(state: RefundState, threshold: int, policy: str) -> str:
    """Who the payout is recorded for; refuses (raises) a payout that no rule allows.

    Every path checks its input first; these checks keep a state that slipped
    past them (a crafted fork, a future path) from paying: the node raises, so
    the case needs attention and is shown in the inbox instead of paying wrongly.
    """
    amount, requested = state.get("amount"), state["requested_amount"]
    if problem := requested_amount_problem(requested):
        raise ValueError(f"case {state['case_id']}: {problem}")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= requested:
        raise ValueError(
            f"case {state['case_id']}: refusing to pay {amount!r} KRW (must be 1 to the requested {krw(requested)})"
        )
    decision, approver = state.get("decision"), state.get("approver")
    # ``automatic`` is what settle itself records: it holds only where no human is needed (below).
    if decision == "approve" and approver != AUTOMATIC_APPROVER:
        if problem := recorded_approver_problem(state, decision):
            raise ValueError(f"case {state['case_id']}: {problem}")
        return str(approver)
    if decision is not None and decision != "approve":
        raise ValueError(f"case {state['case_id']}: settle reached with the decision {decision!r}")
    routed_on = requested if policy == "strict" else amount
    limit = case_threshold(state, threshold)
    if routed_on <= limit:
        return AUTOMATIC_APPROVER
    what = "an automatic approval" if decision == "approve" else "settle reached without an approval"
    raise ValueError(f"case {state['case_id']}: {what} ({krw(routed_on)} KRW is above the threshold {krw(limit)})")


def case_threshold(state: RefundState, threshold: int) -> int:
    """The threshold a case is routed and settled by: the lower of the one ``assess`` recorded and this process's.

    The recorded one keeps a case on the approval path if the graph is later built with a higher
    threshold (``build_graph(threshold=...)``). This process's caps it: the state's value can be
    written by ``update_state`` on a path that does not check its keys (LangGraph's own tooling,
    ``agents/langgraph_app.py``), and a raised value there must not let ``settle`` pay automatically
    what this process would send to a human.
    """
    recorded = state.get("threshold")
    if isinstance(recorded, bool) or not isinstance(recorded, int):
        return threshold
    return min(recorded, threshold)


def reject(state: RefundState, config: RunnableConfig) -> dict[str, Any]:
    """Ends the case with a recorded rejection; nothing is paid."""
    lang = run_language(config)
    lines, recorded = edit_lines(state, lang)
    if state.get("decision") != "reject":
        raise ValueError(f"case {state['case_id']}: reject reached without a rejection")
    if problem := recorded_approver_problem(state, "reject"):
        raise ValueError(f"case {state['case_id']}: {problem}")
    lines.append(say(STRINGS, "refund.say.rejected", lang, approver=state["approver"]))
    return {**recorded, "outcome": "rejected", "trace": lines}


def _builder(store: Store | None, policy: str, threshold: int, log: Callable[..., Any]) -> StateGraph:
    builder = StateGraph(RefundState, input_schema=RefundInput)
    builder.add_node("assess", log(make_assess(threshold, policy, store)))
    builder.add_node("review", log(review))
    builder.add_node("settle", log(make_settle(store, threshold, policy)))
    builder.add_node("reject", log(reject))
    builder.add_node("item", log(items.make_item(store)))
    builder.add_node("finish_items", log(items.finish_items))
    builder.add_edge(START, "assess")
    route = make_route_after_assess(policy, threshold, store)
    builder.add_conditional_edges("assess", route, ["review", "settle", "item"])
    builder.add_edge("item", "finish_items")
    builder.add_edge("finish_items", END)
    builder.add_conditional_edges("review", route_after_review, ["settle", "reject", "review"])
    builder.add_edge("settle", END)
    builder.add_edge("reject", END)
    return builder


def build_graph(
    checkpointer: Any,
    *,
    store: Store | None = None,
    policy: str = DEFAULT_POLICY,
    threshold: int = DEFAULT_THRESHOLD,
) -> CompiledStateGraph:
    """Builds the refund graph on a checkpointer.

    Args:
        checkpointer: Required; without one a paused case could never be resumed.
        store: The database of the ledger (payouts) and the node log.
        policy: ``strict`` (route on the requested amount) or ``reroute`` (route on the amount to pay).
        threshold: Amounts above it need a human.

    Raises:
        MissingCheckpointerError: ``checkpointer`` is missing.
        InputError: Unknown policy.
    """
    saver = require_checkpointer(checkpointer, AGENT_NAME)
    return _builder(store, policy, threshold, node_decorator(store, AGENT_NAME)).compile(checkpointer=saver)


def build_unsaved_pitfall_graph(store: Store | None = None) -> CompiledStateGraph:
    """TEACHING ONLY: the same graph with ``interrupt_before=["settle"]`` and NO checkpointer.

    It bypasses :func:`build_graph` on purpose. Invoked, it stops before
    ``settle`` and returns a half-finished state, with no error, and there is
    nothing to resume: without a checkpointer nothing was saved. Its nodes are
    not written to the node log and, stopping before ``settle``, it pays nothing.
    """
    # ``store`` is not used: the demo writes nothing at all (the real graph's ``assess`` records its policy).
    builder = _builder(None, DEFAULT_POLICY, DEFAULT_THRESHOLD, lambda node: node)
    return builder.compile(interrupt_before=["settle"])


#: The request the pitfall demo runs: at the threshold, so it heads straight for ``settle``.
PITFALL_REQUEST: dict[str, Any] = {
    "case_id": "PITFALL-DEMO",
    "customer": "데모 고객",
    "requested_amount": 50_000,
    "reason": "저장 없는 실행 데모",
    "requested_at": "2025-01-01T00:00:00+00:00",
}


def run_unsaved_pitfall(store: Store | None = None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """TEACHING ONLY: runs :func:`build_unsaved_pitfall_graph` and tries to find its pause again.

    Returns:
        ``state``: what ``invoke`` returned (no error, no ``settle``, nothing paid);
        ``resume_error``: what LangGraph says when asked for the saved state to resume.
    """
    graph = build_unsaved_pitfall_graph(store)
    config: RunnableConfig = {"configurable": {"thread_id": "pitfall-demo"}, "metadata": {LANGUAGE_METADATA_KEY: lang}}
    state = graph.invoke(dict(PITFALL_REQUEST), config)
    try:
        graph.get_state(config)
        resume_error = ""
    except ValueError as error:  # "No checkpointer set": the pause was never saved
        resume_error = str(error)
    return {"state": dict(state), "resume_error": resume_error}
