"""Property tests of the validators: valid input round-trips, invalid input raises InputError naming the field.

No other exception type may escape, whatever the value (text, numbers, lists, None, ...).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import string
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.cli import build_parser
from agents.cli import main as cli_main
from agents.cli.roles import token_entry
from agents.errors import InputError
from agents.identity import token_hash
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT, FIELD_MAX_LENGTH
from agents.lecture.spec import SPEC as LECTURE
from agents.refund.rules import MAX_AMOUNT, RESERVED_APPROVERS
from agents.refund.spec import SPEC as REFUND
from agents.registry import AGENTS, get_agent
from agents.roles_file import parse_roles
from agents.spec import Field, validate_fields
from agents.validation import BIDI_CONTROLS, THREAD_ID_MAX, validate_int, validate_text, validate_thread_id

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),
    st.binary(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
THREAD_ID_CHARS = string.ascii_letters + string.digits + "_.:-"


def _refused_naming(call, field: str) -> None:
    """``call()`` either returns or raises InputError naming ``field``; nothing else."""
    try:
        call()
    except InputError as error:
        assert error.field == field and error.message and str(error).startswith(field)


@SETTINGS
@given(st.integers(min_value=-(10**6), max_value=10**6), st.sampled_from(["plain", "text", "comma"]))
def test_validate_int_round_trips(value, form):
    given_value = {"plain": value, "text": f" {value} ", "comma": f"{value:,}"}[form]
    assert validate_int(given_value, "n", minimum=-(10**6), maximum=10**6) == value


@SETTINGS
@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_a_whole_number_with_decimals_or_as_json_text_is_refused(value):
    for given_value, said in ((float(value), "without decimals"), (str(value), "not text")):
        try:
            validate_int(given_value, "n", minimum=-(10**6), maximum=10**6, text=False)
        except InputError as error:
            assert error.field == "n" and said in error.message
        else:
            raise AssertionError(f"{given_value!r} accepted")


@SETTINGS
@given(ANYTHING)
def test_validate_int_refuses_with_the_field(value):
    _refused_naming(lambda: validate_int(value, "amount", minimum=1, maximum=MAX_AMOUNT), "amount")


@SETTINGS
@given(st.integers().filter(lambda v: not 1 <= v <= MAX_AMOUNT))
def test_validate_int_out_of_range_is_refused(value):
    try:
        validate_int(value, "amount", minimum=1, maximum=MAX_AMOUNT)
    except InputError as error:
        assert error.field == "amount" and "between" in error.message
    else:
        raise AssertionError(f"{value} accepted")


@SETTINGS
@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Cf")), min_size=1, max_size=200))
def test_validate_text_round_trips_trimmed(text):
    if text.strip():
        assert validate_text(text, "note", max_length=200) == text.strip()
    else:
        _refused_naming(lambda: validate_text(text, "note", max_length=200), "note")


#: Format characters (Cf) but the bidirectional controls, which are refused wherever they are.
INVISIBLE = st.characters(whitelist_categories=("Cf",), blacklist_characters="".join(BIDI_CONTROLS))


@SETTINGS
@given(st.lists(st.one_of(INVISIBLE, st.sampled_from(" \u00a0\u3000")), min_size=1, max_size=20))
def test_text_of_nothing_visible_is_empty(characters):
    with pytest.raises(InputError, match="is empty") as refused:
        validate_text("".join(characters), "approver", max_length=100)
    assert refused.value.field == "approver"


@SETTINGS
@given(
    st.text(alphabet=string.ascii_letters, min_size=1, max_size=10), INVISIBLE, st.sampled_from(sorted(BIDI_CONTROLS))
)
def test_format_characters_stay_but_bidi_controls_are_refused(word, invisible, bidi):
    joined = f"{word}{invisible}{word}"
    assert validate_text(joined, "note", max_length=100) == joined
    with pytest.raises(InputError, match=f"U\\+{ord(bidi):04X}"):
        validate_text(f"{word}{bidi}{word}", "note", max_length=100)


@SETTINGS
@given(ANYTHING)
def test_validate_text_refuses_with_the_field(value):
    _refused_naming(lambda: validate_text(value, "note", max_length=50), "note")


@SETTINGS
@given(st.text(min_size=1, max_size=20), st.characters(whitelist_categories=("Cc",), blacklist_characters="\n\t"))
def test_validate_text_refuses_control_characters(text, control):
    try:
        validate_text(f"a{control}{text}b", "note", max_length=100)
    except InputError as error:
        assert error.field == "note"
    else:
        raise AssertionError("control character accepted")


@SETTINGS
@given(
    st.sampled_from(string.ascii_letters + string.digits), st.text(alphabet=THREAD_ID_CHARS, max_size=THREAD_ID_MAX - 1)
)
def test_validate_thread_id_round_trips(first, rest):
    assert validate_thread_id(first + rest) == first + rest


@SETTINGS
@given(st.text(max_size=300))
def test_validate_thread_id_refuses_with_the_field(text):
    try:
        result = validate_thread_id(text)
    except InputError as error:
        assert error.field == "thread_id"
        return
    # Letters, digits (and the marks that combine with them) of any script, NFC, and _ . : - only.
    assert len(result) <= THREAD_ID_MAX and result == unicodedata.normalize("NFC", result)
    assert unicodedata.category(result[0])[0] in "LN"
    assert all(unicodedata.category(c)[0] in "LNM" or c in "_.:-" for c in result), result
    assert not set(result) & set("'\"/\\; ")


CHOICE = Field(name="action", kind="choice", choices=("approve", "reject", "edit"))
NUMBER = Field(name="amount", kind="int", minimum=1, maximum=MAX_AMOUNT)


@SETTINGS
@given(st.sampled_from(CHOICE.choices), st.sampled_from(["", " ", "\t"]))
def test_choice_field_round_trips(choice, pad):
    assert CHOICE.validate(pad + choice + pad) == choice


@SETTINGS
@given(ANYTHING)
def test_choice_and_int_fields_refuse_with_their_name(value):
    _refused_naming(lambda: CHOICE.validate(value), "action")
    _refused_naming(lambda: NUMBER.validate(value), "amount")


@SETTINGS
@given(st.integers(min_value=1, max_value=MAX_AMOUNT))
def test_int_field_round_trips(value):
    assert NUMBER.validate(value) == value == NUMBER.validate(str(value))


REFUND_ANSWER = st.fixed_dictionaries(
    {"action": st.sampled_from(["approve", "reject", "edit"]), "approver": st.text(min_size=1, max_size=10)},
    optional={
        "amount": st.one_of(st.integers(), st.text(max_size=5), st.none()),
        "note": st.text(max_size=5),
        "extra": st.integers(),
    },
)


@SETTINGS
@given(st.one_of(REFUND_ANSWER, ANYTHING))
def test_refund_resume_check(value):
    try:
        answer = REFUND.ask.check_resume(value)
    except InputError as error:
        named = {"action", "amount", "approver", "note"} | (set(value) if isinstance(value, dict) else set())
        assert error.field in named and error.message  # a resume field, or the unknown key given
        return
    assert answer["action"] in ("approve", "reject", "edit") and answer["approver"]
    assert (answer["action"] == "edit") == (answer.get("amount") is not None)
    if answer["action"] == "edit":  # a whole number; its range is the case's, checked against the question
        assert type(answer["amount"]) is int
        try:
            REFUND.ask.check_answer({"requested_amount": MAX_AMOUNT}, answer)
        except InputError as error:
            assert error.field == "amount" and not 1 <= answer["amount"] <= MAX_AMOUNT
        else:
            assert 1 <= answer["amount"] <= MAX_AMOUNT


@SETTINGS
@given(
    st.integers(min_value=1, max_value=MAX_AMOUNT),
    # Hypothesis also draws the code's own constants: the names the agent writes itself are refused.
    st.text(alphabet=string.ascii_letters, min_size=1, max_size=10).filter(
        lambda name: name.casefold() not in RESERVED_APPROVERS
    ),
)
def test_refund_edit_round_trips(amount, approver):
    answer = REFUND.ask.check_resume({"action": "edit", "amount": amount, "approver": approver})
    assert answer["amount"] == amount and answer["approver"] == approver


@SETTINGS
@given(st.sampled_from(sorted(DEFAULT_LECTURE_INPUT)), ANYTHING)
def test_lecture_input_refuses_naming_the_field(name, value):
    _refused_naming(lambda: validate_fields(LECTURE.run.start_fields, {**DEFAULT_LECTURE_INPUT, name: value}), name)


@SETTINGS
@given(
    st.sampled_from(sorted(DEFAULT_LECTURE_INPUT)),
    # Without format characters (Cf): text of only those is empty, and the bidi controls are refused (below).
    st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Cf")), min_size=1, max_size=FIELD_MAX_LENGTH),
)
def test_lecture_input_round_trips(name, text):
    values = {**DEFAULT_LECTURE_INPUT, name: text}
    if not text.strip():
        _refused_naming(lambda: validate_fields(LECTURE.run.start_fields, values), name)
        return
    assert validate_fields(LECTURE.run.start_fields, values)[name] == text.strip()


# --- empty, blank and path-like ids, agent names and option values ---------------------------------------------

BLANK = st.text(alphabet=" \t\n\r\u00a0\u3000\u2003", max_size=5)


@SETTINGS
@given(BLANK)
def test_a_blank_thread_id_is_refused_never_the_default(text):
    with pytest.raises(InputError, match="is empty") as refused:
        validate_thread_id(text)
    assert refused.value.field == "thread_id"


@SETTINGS
@given(st.text(max_size=20), st.sampled_from(["/", "\\", "../", "./", "~/", "%2F"]), st.text(max_size=20))
def test_a_path_like_thread_id_is_refused(before, separator, after):
    with pytest.raises(InputError) as refused:
        validate_thread_id(f"{before}{separator}{after}" if separator != "./" else f"{separator}{after}")
    assert refused.value.field == "thread_id"


@SETTINGS
@given(st.one_of(BLANK, st.text(max_size=12), st.sampled_from(["../x", "robot/..", " robot", "Robot", "robot\n"])))
def test_a_name_that_is_no_registered_agent_is_refused_naming_agent(name):
    if name in AGENTS:
        assert get_agent(name).name == name
        return
    with pytest.raises(InputError) as refused:
        get_agent(name)
    assert refused.value.field == "agent"


def _value_options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """Every (command path, option) of the CLI whose option takes a value, but an agent's start fields."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _value_options(sub, (*path, name))
        elif isinstance(action, argparse._StoreAction) and action.option_strings:
            found.append((path, action.option_strings[-1]))
    return found


AGENT_FIELD_FLAGS = {field.flag for spec in AGENTS.values() for field in spec.run.start_fields}
VALUE_OPTIONS = [option for option in _value_options(build_parser()) if option[1] not in AGENT_FIELD_FLAGS]


def test_the_cli_has_value_options_to_try():
    assert len(VALUE_OPTIONS) > 30 and ((), "--db") in VALUE_OPTIONS and (("inbox",), "--agent") in VALUE_OPTIONS


@SETTINGS
@given(st.sampled_from(VALUE_OPTIONS), BLANK)
def test_an_option_given_a_blank_value_is_a_usage_error_naming_it(option, blank):
    """For every command and every option that takes a value: exit 2 naming it, before anything is read."""
    (path, flag) = option
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main([*path, flag, blank])
    assert code == 2 and f"argument {flag}" in err.getvalue() and "is empty" in err.getvalue(), err.getvalue()
    assert out.getvalue() == ""


@SETTINGS
@given(
    st.one_of(st.text(max_size=30), st.sampled_from(['x" = 1\n[users]', "a\\b", 'kim "ci"', "[users]", "#x"])),
    st.one_of(st.text(max_size=30), st.sampled_from(["kim@example.com", 'a"b@x.y', "x@y\n[users]", "a@b@c"])),
)
def test_a_token_entry_is_refused_or_reads_back_as_exactly_that_token(label, email):
    digest = token_hash("a token")
    try:
        line = token_entry(label, email, digest)
    except InputError as error:
        assert error.field in ("label", "email") and error.message
        return
    roles = parse_roles(f"[tokens]\n{line}\n")
    assert "\n" not in line and not roles.users
    assert dict(roles.tokens) == {digest: (email.strip(), "", label.strip())}
