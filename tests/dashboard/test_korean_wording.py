"""Korean reads as one product: the glossary's words everywhere, both languages for every key, particles that fit."""

from __future__ import annotations

import re

import pytest

from agents.lecture.model import strings as lecture_strings
from agents.refund import strings as refund_strings
from agents.robot import strings as robot_strings
from agents.strings import GLOSSARY
from agents.texts import PARTICLES, fill, particle, text
from dashboard.i18n import catalogue, t

#: How each glossary term shows up in an English string.
ENGLISH_TERMS = {
    "case": r"\bcases?\b",
    "inbox": r"\binbox\b",
    "decoded": r"\bdecod",
    "reject": r"\breject",
    "refused": r"\brefus",
    "done": r"\bdone\b",
}
#: Words that never stand for anything in this product's Korean (they only ever stood in for a glossary term).
NEVER = ("사례", "케이스", "받은 편지함", "해독")


def test_every_glossary_term_is_checked():
    assert set(GLOSSARY) == set(ENGLISH_TERMS)


@pytest.mark.parametrize("term", sorted(GLOSSARY))
def test_a_string_about_a_term_uses_the_glossarys_korean_word(term):
    word, avoided = GLOSSARY[term]
    wrong = {
        key: korean
        for key, (english, korean) in catalogue().items()
        if re.search(ENGLISH_TERMS[term], english, re.IGNORECASE) and any(bad in korean for bad in avoided)
    }
    assert not wrong
    assert any(word in korean for _english, korean in catalogue().values())


def test_the_robot_says_the_refused_word_for_every_answer_but_yes():
    # The robot has no reject decision: an answer that is not `yes` refuses, so its Korean never says 거절,
    # whatever its English calls that answer ("no", "anything else").
    word, avoided = GLOSSARY["refused"]
    assert not {key: ko for key, (_en, ko) in robot_strings.STRINGS.items() if any(bad in ko for bad in avoided)}
    assert word in robot_strings.STRINGS["robot.rule"][1]


def test_no_korean_string_uses_a_word_the_glossary_replaced():
    assert not {key: ko for key, (_en, ko) in catalogue().items() if any(bad in ko for bad in NEVER)}


def test_the_done_status_is_explained_with_its_korean_word():
    # The status shows 완료; an explanation that says `done` points at a word the Korean screen never shows.
    assert not {key: ko for key, (_en, ko) in catalogue().items() if "`done`" in ko}


def test_every_key_has_both_languages_and_particles_only_in_korean():
    fields = re.compile(r"\{\w+(?:![rs])?:(" + "|".join(map(re.escape, PARTICLES)) + r")\}")
    for key, pair in catalogue().items():
        assert len(pair) == 2 and all(side.strip() for side in pair), key
        assert not fields.search(pair[0]), key  # English has no particles to fit


@pytest.mark.parametrize(
    ("word", "pair", "expected"),
    [
        ("건-1080", "을/를", "을"),  # 팔십 / 공: a final consonant
        ("refund-C1", "을/를", "을"),  # 일
        ("C2", "을/를", "를"),  # 이
        ("hitl_demo", "을/를", "를"),
        ("kim", "이/가", "이"),
        ("lee", "이/가", "가"),
        ("'yes'", "이라고/라고", "라고"),  # the quote is skipped
        ("서울", "으로/로", "로"),  # a final ㄹ takes 로
        ("1", "으로/로", "로"),
        ("3", "으로/로", "으로"),
        ("부산", "은/는", "은"),
        ("100,000원", "을/를", "을"),
        ("★", "을/를", "을(를)"),  # unreadable: both
        ("", "이/가", "이(가)"),
    ],
)
def test_a_particle_follows_how_the_word_is_read(word, pair, expected):
    assert particle(word, pair) == expected


def test_particles_fit_ids_ending_in_digits_on_every_path():
    assert t("refund.new.done", "ko", case="건-1080", status="대기 중") == "건-1080을 제출했습니다: 대기 중."
    assert t("refund.new.done", "ko", case="C2", status="대기 중") == "C2를 제출했습니다: 대기 중."
    assert t("refund.new.done", "en", case="C2", status="waiting") == "Case C2 submitted: waiting."
    assert fill("{answer!r:이라고/라고} 답했습니다", {"answer": "no"}) == "'no'라고 답했습니다"
    assert t("forms.delete.done", "ko", thread="refund-C1").startswith("스레드 refund-C1을 ")


def test_an_agents_message_fits_its_particles_when_rendered():
    # A Text is made by the agents layer and rendered later, in the reader's language.
    message = text(refund_strings.STRINGS, "refund.error.case_exists", case_id="건-1061", thread="t-1")
    assert message.render("ko") == "건 번호 건-1061은 이미 있습니다(스레드 t-1). 새 건 번호를 쓰세요"
    assert message.render("en") == "case 건-1061 already exists (thread t-1 holds it); use a new case id"


#: A particle whose form depends on how the word before it ends, written straight after a value (``{item}은``,
#: ``'{term}'이(가)``): the value decides the form, so the template must let :func:`fill` choose it.
_FIXED_PARTICLE = re.compile(
    r"\{\w+(?:![rs])?\}[”’\"']?(?:을|를|이|가|은|는|과|와|으로|로|이라는|라는|이라고|라고)(?![가-힣])"
)


def _strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str):
        yield value


def test_no_korean_template_fixes_the_particle_after_a_value():
    fixed = {key: ko for key, (_en, ko) in catalogue().items() if _FIXED_PARTICLE.search(ko)}
    assert not fixed
    # The lecture's model texts are filled with plain str.format: a particle there follows a word, not a value.
    assert not [line for line in _strings(lecture_strings.TEXT["ko"]) if _FIXED_PARTICLE.search(line)]


@pytest.mark.parametrize(
    ("key", "values", "expected"),
    [
        ("refund.error.item_twice", {"item": "A1"}, "항목 A1이 두 번 있습니다"),
        ("refund.error.item_twice", {"item": "B2"}, "항목 B2가 두 번 있습니다"),
        ("robot.answered", {"answer": "응"}, "응이라고 답했습니다."),
        ("robot.answered", {"answer": "no"}, "no라고 답했습니다."),
        ("error.json_constant", {"name": "NaN"}, "유한한 수가 아닌 NaN이 들어 있습니다"),
        ("timeline.no_gain.note", {"step": 2, "speedup": "0.85", "tasks": 3}, "스텝 2: 속도 향상 0.85는 호출 3개"),
        ("timeline.no_gain.note", {"step": 2, "speedup": "0.90", "tasks": 3}, "스텝 2: 속도 향상 0.90은 호출 3개"),
    ],
)
def test_a_value_takes_the_particle_its_ending_asks_for(key, values, expected):
    assert t(key, "ko", **values).startswith(expected)
