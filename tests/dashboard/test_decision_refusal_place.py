"""Where a refused decision is said: under the buttons of the controls clicked while they are drawn, once (the
case panel's own place then says nothing that run), in the panel's own place on a run without them; and what an
edit sends for the amount typed."""

from __future__ import annotations

import pytest

from agents.errors import InputError, StaleFormError
from dashboard.decision_view import edit_fields, forget, note_refused_by, refusal, refused_here, said_as_read

KEY = "page:refused"


def _refused_on(state: dict, controls: str, thread: str = "t1", message: str = "Nothing was done: no") -> None:
    state[KEY] = (thread, message)  # what ``dashboard.forms.act`` keeps for a refused click
    note_refused_by(state, KEY, controls)


def test_the_controls_clicked_say_it_and_the_panels_place_says_nothing_that_run():
    state: dict = {}
    _refused_on(state, "item-{}-b")
    assert refused_here(state, KEY, "t1", "item-{}-a") is None  # another item's controls
    assert refused_here(state, KEY, "t1", "item-{}-b") == "Nothing was done: no"
    assert refusal(state, KEY, "t1") is None  # said once


def test_a_run_without_those_controls_says_it_in_the_panels_place_on_every_run():
    state: dict = {}
    _refused_on(state, "case-{}")
    assert refused_here(state, KEY, "t1", "case-{}") is not None
    assert refusal(state, KEY, "t1") is None
    for _ in range(2):  # the next runs: the case decided elsewhere, its controls gone
        assert refusal(state, KEY, "t1") == "Nothing was done: no"


def test_a_refusal_of_another_thread_or_kept_by_no_controls_is_not_theirs():
    state: dict = {}
    _refused_on(state, "case-{}", thread="t2")
    assert refused_here(state, KEY, "t1", "case-{}") is None
    state[KEY] = ("t1", "Nothing was done: continue")  # a Continue refused: no controls noted it
    assert refused_here(state, KEY, "t1", "case-{}") is None
    assert refusal(state, KEY, "t1") == "Nothing was done: continue"


def test_the_pages_own_run_forgets_the_refusal_and_where_it_was_said():
    state: dict = {}
    _refused_on(state, "case-{}")
    refused_here(state, KEY, "t1", "case-{}")
    forget(state, KEY)
    assert state == {}


@pytest.mark.parametrize(
    ("typed", "fields", "unreadable"),
    [("", {}, False), ("  ", {}, False), ("120,000", {"amount": 120_000}, False), (" 7 ", {"amount": 7}, False)]
    + [(text, {"amount": text}, True) for text in ("abc", "120,00", "-5", "１０")],
)
def test_an_edit_sends_the_amount_read_or_as_typed_with_why(typed, fields, unreadable):
    sent, error = edit_fields(typed)
    assert sent == fields and (error is not None) == unreadable
    if error is not None:
        assert isinstance(error, InputError) and error.field == "amount"


def test_a_refusal_of_the_amount_typed_is_said_as_the_page_read_it_and_others_pass():
    _, unreadable = edit_fields("abc")
    with pytest.raises(InputError) as said:
        with said_as_read(unreadable):
            raise InputError("amount", "must be a number, not text")
    assert said.value is unreadable
    for other in (InputError("approver", "is required"), StaleFormError("t1", "h0", "h1")):
        with pytest.raises(type(other)) as passed, said_as_read(unreadable):
            raise other
        assert passed.value is other
    with pytest.raises(InputError) as passed, said_as_read(None):
        raise InputError("amount", "from 1 to 300,000")
    assert passed.value.field == "amount" and passed.value is not unreadable
