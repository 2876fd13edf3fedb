"""The gate rule: the rounded mean of one round's reviews against the threshold."""

from __future__ import annotations

import pytest

from agents.lecture.prompts import REVIEWERS
from agents.lecture.rounds import combined_score, gate_verdict
from agents.lecture.state import Review


def _reviews(*scores: int) -> list[dict]:
    return [
        {"round": 1, "reviewer": name, "score": score, "feedback": []}
        for name, score in zip(REVIEWERS, scores, strict=True)
    ]


@pytest.mark.parametrize(
    ("scores", "threshold", "combined", "passed"),
    [
        ((70, 80, 90), 80, 80, True),
        ((79, 80, 80), 80, 80, True),  # 79.67 rounds half up to 80
        ((79, 79, 80), 80, 79, False),  # 79.33 rounds to 79
        ((100, 50, 75), 80, 75, False),
        ((100, 50, 75), 75, 75, True),
    ],
)
def test_gate_rule_is_the_rounded_mean_against_the_threshold(scores, threshold, combined, passed):
    verdict = gate_verdict(_reviews(*scores), 1, threshold)
    assert (verdict["score"], verdict["passed"], verdict["threshold"]) == (combined, passed, threshold)


def test_the_combined_score_is_the_rounded_mean() -> None:
    scores = zip(REVIEWERS, (100, 50, 75), strict=True)
    reviews = [Review(reviewer=name, score=score, feedback=[]) for name, score in scores]
    assert combined_score(reviews) == 75
    assert combined_score(reviews[:2]) == 75 and combined_score([reviews[0], reviews[2]]) == 88
    with pytest.raises(ValueError):
        combined_score([])
