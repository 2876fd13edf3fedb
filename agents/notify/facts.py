"""What an event keeps of a waiting thread's questions, found live (:mod:`agents.notify.scan`) or in the
checkpoint history (:mod:`agents.notify.history`) alike.

One question: its case, customer and amount, and the question in the reader's language. Several at once (a
refund with several items waiting): how many, and the amount they ask for together as the agent states it
(``AgentSpec.ask.asked_amount``, the refund's ``asked_amount`` its ledger and page read), never the first
item's amount and question alone; and what each of them asks (``questions``: its item and amount), from which
the recipients are chosen as the inbox chooses who may decide (:func:`agents.notify.channels.may_decide`),
never from what they ask for together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.readmodel import to_jsonable
from agents.registry import AGENTS
from agents.threadstatus import says_count

#: What an event keeps of a waiting question: its case, what it asks to pay, the request, and how many
#: items the case decides in all (``item_count``, for "2 of 5 items").
PAYLOAD_FACTS = ("case_id", "customer", "amount", "requested_amount", "item_count")
#: What an event keeps of each question when several wait at once (``questions``): what it is about and what it
#: asks to pay, for choosing who may decide each (not part of any message).
QUESTION_FACTS = ("item", "amount", "requested_amount")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def question_facts(agent: str, questions: Sequence[Any], question: str) -> dict[str, Any]:
    """What a message says of a wait on ``questions`` (the first as the status shows it, ``question`` its
    words in the reader's language, "" for none).

    One question that is an item of a case with several (``item_count``): ``waiting_count`` 1 too, where the
    thread's status says so (:func:`agents.threadstatus.says_count`, the one rule of every reader).

    Several questions: ``waiting_count`` and ``amount``, what they ask for together (left out when the agent
    states no such amount, so no message gives one item's amount as the case's); neither one question's
    words nor its item's request. And ``questions``: each question's :data:`QUESTION_FACTS`, whom the mail
    goes to being who may decide at least one of them.
    """
    first = questions[0] if questions else None
    facts = {key: to_jsonable(first[key]) for key in PAYLOAD_FACTS if isinstance(first, dict) and key in first}
    if len(questions) <= 1:
        facts |= {"question": question} if question else {}
        if questions and says_count(1, first):  # the last item of several waits: "1 of 3 items", as its status says
            facts["waiting_count"] = 1
        return facts
    facts["waiting_count"] = len(questions)
    facts["questions"] = [
        {key: to_jsonable(asked[key]) for key in QUESTION_FACTS if key in asked}
        for asked in questions
        if isinstance(asked, dict)
    ]
    spec = AGENTS.get(agent)
    together = spec.ask.asked_amount(questions) if spec is not None and spec.ask.asked_amount else None
    facts.pop("amount", None)
    facts.pop("requested_amount", None)
    if _whole(together) and together:
        facts["amount"] = together
    return facts
