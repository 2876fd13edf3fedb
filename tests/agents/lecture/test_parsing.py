"""Reading model answers: plans, reviews, research summaries and drafts."""

from __future__ import annotations

import pytest

from agents.lecture.parsing import parse_draft, parse_plan, parse_research, parse_review
from agents.lecture.prompts import ModelOutputError, extract_json


def test_json_is_found_after_a_stray_bracket() -> None:
    assert extract_json('Score [draft]: {"score": 70, "feedback": []}') == {"score": 70, "feedback": []}


def test_a_plan_with_too_many_subtopics_keeps_the_first_five() -> None:
    titles = [f"T{n}" for n in range(7)]
    assert [s["title"] for s in parse_plan(str(titles).replace("'", '"'))] == titles[:5]


@pytest.mark.parametrize(
    ("answer", "score", "feedback"),
    [
        ('{"score": 150, "feedback": "too long"}', 100, ["too long"]),
        ('{"score": "72.5", "feedback": ["a", ""]}', 73, ["a"]),
        ('{"score": -3}', 0, []),
    ],
)
def test_review_answers_are_clamped_and_cleaned(answer: str, score: int, feedback: list[str]) -> None:
    assert parse_review(answer, "content") == {"reviewer": "content", "score": score, "feedback": feedback}


@pytest.mark.parametrize("answer", ['{"feedback": []}', '{"score": "high"}', '{"score": NaN}', "[1, 2]"])
def test_review_answers_without_a_score_are_refused(answer: str) -> None:
    with pytest.raises(ModelOutputError):
        parse_review(answer, "difficulty")


def test_research_answers_keep_only_sources_that_were_given() -> None:
    documents = [{"title": "t", "text": "x", "source": "data/corpus/a.md"}]
    answer = '{"summary": "s", "key_points": ["p"], "sources": ["data/corpus/a.md", "https://invented.example"]}'
    assert parse_research(answer, "s2", documents)["sources"] == ["data/corpus/a.md"]
    with pytest.raises(ModelOutputError, match="summary"):
        parse_research('{"key_points": []}', "s2", documents)


def test_a_fenced_markdown_draft_is_unwrapped() -> None:
    assert parse_draft("```markdown\n# Plan\n\n| a |\n```") == "# Plan\n\n| a |\n"
    with pytest.raises(ModelOutputError, match="empty draft"):
        parse_draft("   ")
