"""The rounds of a run: which reviews and research belong to them, and the gate rule.

The gate rule: the combined score of a round is the mean of that round's
review scores, rounded half up (:func:`combined_score`), recomputed from the
round's own reviews every round; the round passes when it is at least the
threshold (:func:`gate_verdict`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from agents.lecture.state import LectureState, ResearchResult, Review, RoundReview, RoundScore


def combined_score(reviews: Sequence[Review]) -> int:
    """The gate's score: the mean of one round's review scores, rounded half up.

    Raises:
        ValueError: No reviews.
    """
    if not reviews:
        raise ValueError("combined_score needs at least one review")
    return math.floor(sum(review["score"] for review in reviews) / len(reviews) + 0.5)


def gate_verdict(reviews: list[RoundReview], round_number: int, threshold: int) -> RoundScore:
    """The gate rule: mean of the round's scores (half up) against the threshold."""
    score = combined_score([Review(reviewer=r["reviewer"], score=r["score"], feedback=r["feedback"]) for r in reviews])
    return RoundScore(round=round_number, score=score, threshold=threshold, passed=score >= threshold)


def researched_ids(state: LectureState) -> set[str]:
    """Ids of subtopics that have a research result."""
    return {result["subtopic_id"] for result in state.get("research", [])}


def plan_research(state: LectureState) -> list[ResearchResult]:
    """The research results of the current plan, in plan order (first result per subtopic)."""
    by_id: dict[str, Any] = {}
    for result in state.get("research", []):
        by_id.setdefault(result["subtopic_id"], result)
    return [by_id[s["id"]] for s in state["subtopics"] if s["id"] in by_id]


def round_reviews(state: LectureState, round_number: int) -> list[RoundReview]:
    """The reviews of one round."""
    return [review for review in state.get("reviews", []) if review["round"] == round_number]
