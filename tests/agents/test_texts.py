"""Errors and thread reasons of the agents layer carry a catalogue key, rendered in the reader's language."""

from __future__ import annotations

import pytest

from agents import lifecycle, runs, runtime, strings
from agents.errors import InputError, StaleFormError, ThreadNotFoundError
from agents.refund import strings as refund_strings
from agents.refund.spec import RESUME_FIELDS
from agents.spec import validate_fields
from agents.texts import Text, render
from agents.validation import parse_json, validate_int
from dashboard.i18n import catalogue


def _refusal(call, *args, **kwargs) -> InputError:
    with pytest.raises(InputError) as refused:
        call(*args, **kwargs)
    return refused.value


def test_a_missing_field_reads_as_before_in_english_and_in_korean_on_request():
    error = _refusal(validate_fields, RESUME_FIELDS, {"action": "approve"})
    assert str(error) == "approver: is required" and error.message == "is required"
    assert error.render("en") == "approver: is required"
    assert error.render("ko") == "approver: 필수 항목입니다"


def test_a_bad_amount_names_its_field_in_both_languages():
    error = _refusal(validate_int, "5,00", "amount", minimum=1, maximum=10_000_000)
    assert str(error).startswith("amount: must be a whole number written with the digits 0-9")
    assert error.render("ko").startswith("amount: 0-9 숫자로 쓴 정수여야 합니다")
    assert error.render("ko").endswith("입력값: '5,00'")
    error = _refusal(validate_int, 0, "amount", minimum=1, maximum=10_000_000)
    assert str(error) == "amount: must be between 1 and 10,000,000, got 0"
    assert error.render("ko") == "amount: 1에서 10,000,000 사이여야 합니다. 입력값: 0"


def test_thread_errors_render_in_korean():
    assert ThreadNotFoundError("x").render("ko") == "thread_id: 데이터베이스에 'x'라는 스레드가 없습니다"
    stale = StaleFormError("t", "1-aaaaaaaa", "1-bbbbbbbb")
    assert str(stale).startswith("thread 't' changed since this form was drawn (checkpoint aaaaaaaa → bbbbbbbb)")
    assert stale.render("ko").startswith("이 양식을 그린 뒤 스레드 't'가 바뀌었습니다")


def test_an_error_without_a_key_renders_as_its_english():
    error = InputError("x", "plain words")
    assert error.text is None and error.render("ko") == "x: plain words" and render(error, "ko") == "x: plain words"


def test_every_text_the_agents_layer_can_show_is_in_the_dashboard_catalogue():
    merged = catalogue()
    for key, pair in {**strings.STRINGS, **refund_strings.STRINGS}.items():
        assert merged[key] == pair
    nested = Text(
        "error.field",
        strings.STRINGS["error.field"],
        {"field": "f", "message": Text("error.empty", strings.STRINGS["error.empty"])},
    )
    assert nested.render("ko") == "f: 비어 있습니다"


def test_an_edited_thread_gives_its_reason_in_both_languages(store, settings):
    runs.start_run(store, settings, "robot", {}, lang="ko")
    graph_config = {"configurable": {"thread_id": "hitl_demo"}}
    runtime.graph(store, "robot").update_state(graph_config, {"decision": "yes"}, as_node="approval")
    status = lifecycle.thread_status(store, "hitl_demo")
    assert status is not None and status.reason_code == "edited"
    assert status.reason == (
        "its state was edited (update_state) and the run was not continued; continue it to run execute"
    )
    assert (
        status.reason_in("ko")
        == "상태가 편집되었지만(update_state) 실행이 이어지지 않았습니다. 계속 실행하면 execute가 실행됩니다"
    )


def test_the_command_line_prints_errors_in_its_language(run_cli):
    english = run_cli("run", "refund", "--case", "B9", "--customer", "x", "--amount", "0", "--reason", "r")
    assert english.code == 2 and english.err == "error: amount: must be between 1 and 10,000,000, got 0\n"
    korean = run_cli(
        "--lang", "ko", "run", "refund", "--case", "B9", "--customer", "x", "--amount", "0", "--reason", "r"
    )
    assert korean.code == 2 and korean.err == "오류: amount: 1에서 10,000,000 사이여야 합니다. 입력값: 0\n"
    missing = run_cli("resume", "ghost", "yes", "--lang", "ko")
    assert missing.code == 2 and missing.err == "오류: thread_id: 데이터베이스에 'ghost'라는 스레드가 없습니다\n"


def test_an_inconsistent_end_gives_its_reason_in_both_languages(store, settings):
    """A robot run whose ``execute`` never ran, made to look finished: the agent's problem, translated."""
    runs.start_run(store, settings, "robot", {}, lang="ko")
    graph_config = {"configurable": {"thread_id": "hitl_demo"}}
    runtime.graph(store, "robot").update_state(graph_config, {"decision": "no"}, as_node="execute")
    status = lifecycle.thread_status(store, "hitl_demo")
    assert status is not None and status.reason_code == "inconsistent"
    assert status.reason == "the run ended without the robot's final message (execute did not run)"
    assert status.reason_in("ko") == "로봇의 마지막 메시지 없이 실행이 끝났습니다(execute가 실행되지 않음)"


def test_an_unknown_thread_or_agent_is_named_in_korean_on_the_command_line(run_cli):
    inspect = run_cli("--lang", "ko", "inspect", "ghost")
    assert inspect.code == 2 and inspect.err == "오류: thread_id: 데이터베이스에 'ghost'라는 스레드가 없습니다\n"
    threads = run_cli("threads", "--agent", "nobody", "--lang", "ko")
    assert threads.code == 2
    assert threads.err == "오류: agent: 알 수 없는 에이전트 'nobody'. 알려진 에이전트: robot, refund, lecture\n"


#: A text for each reason Python's json module gives, and the reason.
JSON_REFUSALS = {
    "{bad": "Expecting property name enclosed in double quotes",
    "": "Expecting value",
    '{"a" 1}': "Expecting ':' delimiter",
    '{"a": 1 "b": 2}': "Expecting ',' delimiter",
    '"abc': "Unterminated string starting at",
    '"a\x01"': "Invalid control character at",
    '"\\q"': "Invalid \\escape",
    '"\\u12"': "Invalid \\uXXXX escape",
    "1 2": "Extra data",
}


@pytest.mark.parametrize("typed", list(JSON_REFUSALS), ids=list(JSON_REFUSALS.values()))
def test_why_a_text_is_not_json_is_said_in_the_readers_language(typed):
    error = _refusal(parse_json, typed, "values")
    assert JSON_REFUSALS[typed] in error.render("en")  # in English, Python's own words, as before
    korean = error.render("ko")
    assert korean.startswith("values: 올바른 JSON이 아닙니다(")
    assert not any(
        "a" <= char.lower() <= "z" for char in korean.replace("values", "").replace("JSON", "").replace("uXXXX", "")
    )


def test_a_count_of_one_item_reads_right():
    for count in (1, 3):
        said = render(
            Text("refund.items.waiting", refund_strings.STRINGS["refund.items.waiting"], {"count": count}), "en"
        )
        assert f"{count} items" not in said and str(count) in said
