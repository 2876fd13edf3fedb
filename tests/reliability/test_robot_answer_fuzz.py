"""Fuzzing the robot's answer: it is kept exactly as given, and only the exact ``yes`` executes.

Any text with spaces, invisible or look-alike characters around or inside ``yes`` is checked by the
robot's answer check (the one every path calls: the CLI, the forms typed and raw, the API), which
either refuses it as bad input or returns it unchanged, never trimmed; the ``execute`` node then
runs the action only for ``yes`` itself and shows any other answer verbatim, its spaces visible.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.errors import InputError
from agents.robot.graph import APPROVING_ANSWER, execute, proposed_action
from agents.robot.spec import SPEC as ROBOT
from agents.texts import verbatim

SETTINGS = settings(max_examples=400, deadline=None)
AROUND = st.text(
    alphabet=st.one_of(
        st.characters(categories=("Zs",)), st.sampled_from(["\u200b", "\u2060", "\ufeff", "\t", "\n", "y", "e", "s"])
    ),
    max_size=3,
)
NEAR_YES = st.builds(lambda before, after: before + "yes" + after, AROUND, AROUND)


def _checked(answer: str) -> str | None:
    try:
        return ROBOT.ask.check_resume(answer)
    except InputError as error:
        assert error.field == "answer"
        return None


@SETTINGS
@given(st.one_of(NEAR_YES, st.text(max_size=12)))
def test_an_answer_is_refused_or_kept_exactly_and_only_yes_executes(answer: str) -> None:
    checked = _checked(answer)
    if checked is None:
        return
    assert checked == answer, "never trimmed or changed"
    (message,) = execute({"pending_action": proposed_action(), "decision": checked}, {})["messages"]
    if answer == APPROVING_ANSWER:
        assert message.content.startswith("Executed")
    else:
        assert message.content.startswith("Refused") and verbatim(answer) in message.content
        assert " " not in verbatim(answer), "a space is shown as a visible sign"


@SETTINGS
@given(NEAR_YES)
def test_a_form_field_keeps_the_answer_as_typed(answer: str) -> None:
    (field,) = ROBOT.ask.resume_fields
    try:
        assert field.validate(answer) == answer
    except InputError as error:
        assert error.field == "answer"
