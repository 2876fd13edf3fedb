"""The three reviewers of the embedded model: real checks of the draft's Markdown.

* ``time_allocation``: the schedule tables, parsed back from the text, against
  the teaching-time, lunch, break and session-length rules;
* ``content``: every subtopic, research key point, named tool and constraint
  is covered;
* ``difficulty``: practice share, lecture-only blocks and the glossary fit the
  audience level.

Each returns ``{"score": 0-100, "feedback": [...]}`` in the input's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents.lecture.duration import parse_duration
from agents.lecture.model.schedule import HALF_DAY_MINUTES, ScheduleRow, ScheduleTable, clock, parse_schedule
from agents.lecture.model.strings import JARGON_TERMS, TEXT
from agents.lecture.model.words import audience_level, mentions, plain_text, split_items, split_tools
from agents.lecture.prompts import LUNCH_MINUTES, MAX_SESSION_MINUTES, SCHEDULE_COLUMNS, Language
from agents.lecture.research import tokenize

_GLOSSARY_HEADING = re.compile(r"^(#{1,6})\s*(용어집|용어 정리|용어 설명|glossary|key terms)", re.I | re.M)


def _score(hard: int, soft: int) -> int:
    """100 minus 35 per broken rule and 10 per inconsistency.

    A broken hard rule caps the score at 50: such a schedule cannot be run as
    written, whatever else is right.
    """
    score = 100 - 35 * hard - 10 * soft
    if hard:
        score = min(score, 50)
    return max(0, min(100, score))


def _day_problems(day: int, table: ScheduleTable, expected: int, lang: Language) -> tuple[list[str], list[str]]:
    """Hard rule violations and soft inconsistencies of one day's table."""
    text, rows = TEXT[lang], table.rows
    hard: list[str] = []
    soft: list[str] = [text["unreadable"].format(day=day, count=table.unreadable_rows)] if table.unreadable_rows else []
    for previous, row in zip(rows, rows[1:], strict=False):
        if row.start != previous.end:
            soft.append(text["gap"].format(day=day, time=clock(row.start)))
    for row in rows:
        if row.stated_minutes is not None and row.stated_minutes != row.minutes:
            soft.append(
                text["stated"].format(day=day, start=clock(row.start), stated=row.stated_minutes, minutes=row.minutes)
            )
    teaching = sum(row.minutes for row in rows if row.kind != "lunch")
    if teaching != expected:
        hard.append(text["teaching"].format(day=day, found=teaching, expected=expected))
    hard += _break_problems(day, rows, expected, lang)
    for row in rows:
        if row.kind == "session" and row.minutes > MAX_SESSION_MINUTES:
            hard.append(
                text["too_long"].format(
                    day=day,
                    start=clock(row.start),
                    end=clock(row.end),
                    label=row.label,
                    minutes=row.minutes,
                    limit=MAX_SESSION_MINUTES,
                )
            )
    return hard, soft


def _break_problems(day: int, rows: Sequence[ScheduleRow], expected: int, lang: Language) -> list[str]:
    """Lunch and break rules: one 60-minute lunch on a full day, breaks on both sides."""
    text = TEXT[lang]
    lunches = [index for index, row in enumerate(rows) if row.kind == "lunch"]
    breaks = [index for index, row in enumerate(rows) if row.kind == "break"]
    if expected <= HALF_DAY_MINUTES:
        needs_break = expected > MAX_SESSION_MINUTES and not breaks
        return [text["no_break"].format(day=day)] if needs_break else []
    if not lunches:
        return [text["no_lunch"].format(day=day, minutes=LUNCH_MINUTES)]
    problems: list[str] = []
    if len(lunches) > 1:
        problems.append(text["lunch_many"].format(day=day, found=len(lunches)))
    lunch = rows[lunches[0]]
    if lunch.minutes != LUNCH_MINUTES:
        problems.append(text["lunch_len"].format(day=day, found=lunch.minutes, minutes=LUNCH_MINUTES))
    if not any(index < lunches[0] for index in breaks):
        problems.append(text["no_am_break"].format(day=day))
    if not any(index > lunches[0] for index in breaks):
        problems.append(text["no_pm_break"].format(day=day))
    return problems


def review_time_allocation(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Checks the draft's schedule tables against the timing rules."""
    text, lecture = TEXT[lang], payload["lecture"]
    tables = parse_schedule(payload["draft"])
    if not tables:
        return {"score": 0, "feedback": [text["no_table"].format(columns=" | ".join(SCHEDULE_COLUMNS[lang]))]}
    days = parse_duration(lecture["duration"])
    hard: list[str] = []
    soft: list[str] = [text["assumed"].format(duration=lecture["duration"])] if days.assumed else []
    if len(tables) != len(days.day_minutes):
        expected_days = len(days.day_minutes)
        hard.append(text["day_count"].format(found=len(tables), duration=lecture["duration"], expected=expected_days))
    for day, (table, expected) in enumerate(zip(tables, days.day_minutes, strict=False), start=1):
        day_hard, day_soft = _day_problems(day, table, expected, lang)
        hard += day_hard
        soft += day_soft
    feedback = hard + soft or [text["ok_time"]]
    return {"score": _score(len(hard), len(soft)), "feedback": feedback}


def _point_covered(point: str, draft: str) -> bool:
    """A research point is covered when it is quoted or most of its terms appear."""
    if point.strip().casefold() in draft.casefold():
        return True
    words = [token for token in dict.fromkeys(tokenize(point)) if len(token) > 2 or not token.isascii()]
    if not words:
        return True
    draft_tokens = set(tokenize(draft))
    return sum(word in draft_tokens for word in words) / len(words) >= 0.6


def review_content(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Checks coverage: subtopics, research key points, named tools, constraints."""
    text, lecture = TEXT[lang], payload["lecture"]
    draft = plain_text(payload["draft"])  # as a reader sees it: the user's words escaped in it read as typed
    penalty, feedback = 0, []
    for subtopic in payload.get("subtopics", []):
        if subtopic["title"].casefold() not in draft.casefold():
            penalty += 15
            feedback.append(text["missing_subtopic"].format(title=subtopic["title"]))
    point_penalty = 0
    for result in payload.get("research", []):
        for point in result.get("key_points", []):
            if not _point_covered(point, draft):
                point_penalty += 5
                feedback.append(text["missing_point"].format(point=point[:120]))
    penalty += min(point_penalty, 30)
    for tool in split_tools(lecture["platform_tools"]):
        if not mentions(draft, tool):
            penalty += 15
            feedback.append(text["missing_tool"].format(tool=tool))
    for constraint in split_items(lecture["constraints"]):
        if constraint.casefold() not in draft.casefold():
            penalty += 10
            feedback.append(text["missing_constraint"].format(constraint=constraint))
    return {"score": max(0, 100 - penalty), "feedback": feedback or [text["ok_content"]]}


def glossary_section(draft: str) -> str:
    """The text of the draft's glossary section ('' when there is none)."""
    match = _GLOSSARY_HEADING.search(draft)
    if not match:
        return ""
    level = len(match.group(1))
    rest = draft[match.end() :]
    next_heading = re.search(rf"^#{{1,{level}}}\s", rest, re.M)
    return rest[: next_heading.start()] if next_heading else rest


_DIFFICULTY_RULES = {
    # level: (minimum practice share %, longest lecture-only block in minutes)
    "beginner": (50, 60),
    "intermediate": (40, 75),
    "advanced": (30, MAX_SESSION_MINUTES),
}


def review_difficulty(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Checks the fit of practice share, lecture blocks and glossary to the audience."""
    text, draft = TEXT[lang], payload["draft"]
    level = audience_level(payload["lecture"]["audience_level"])
    level_name = text[level]
    minimum, lecture_limit = _DIFFICULTY_RULES[level]
    sessions = [row for table in parse_schedule(draft) for row in table.rows if row.kind == "session"]
    penalty, feedback = 0, []
    if not sessions:
        penalty += 20
        feedback.append(text["no_schedule_share"])
    else:
        total = sum(row.minutes for row in sessions)
        share = round(100 * sum(row.minutes * row.practice_share for row in sessions) / total)
        if share < minimum:
            penalty += 25
            feedback.append(text["practice_low"].format(share=share, level=level_name, minimum=minimum))
    for row in sessions:
        if row.practice_share == 0 and row.minutes > lecture_limit and level != "advanced":
            penalty += 25
            feedback.append(
                text["long_lecture"].format(
                    day=1 + _day_of(draft, row),
                    start=clock(row.start),
                    end=clock(row.end),
                    label=row.label,
                    minutes=row.minutes,
                    level=level_name,
                    limit=lecture_limit,
                )
            )
    if level == "beginner":
        penalty, feedback = _glossary_check(draft, lang, level_name, penalty, feedback)
    return {"score": max(0, 100 - penalty), "feedback": feedback or [text["ok_difficulty"]]}


def _day_of(draft: str, target: ScheduleRow) -> int:
    """Index of the table (day) a parsed row belongs to."""
    for index, table in enumerate(parse_schedule(draft)):
        if target in table.rows:
            return index
    return 0


def _glossary_check(
    draft: str, lang: Language, level_name: str, penalty: int, feedback: list[str]
) -> tuple[int, list[str]]:
    """Beginners need a glossary that defines every piece of jargon the draft uses."""
    text = TEXT[lang]
    glossary = glossary_section(draft)
    if not glossary.strip():
        return penalty + 25, feedback + [text["no_glossary"].format(level=level_name)]
    body = draft.replace(glossary, "")
    undefined = [term for term in JARGON_TERMS[lang] if mentions(body, term) and not mentions(glossary, term)]
    feedback = feedback + [text["undefined_term"].format(term=term) for term in undefined]
    return penalty + min(20, 5 * len(undefined)), feedback
