"""A text's lines in a grid column, estimated wide, and a text cut to a number of lines with an ellipsis."""

from __future__ import annotations

from dashboard.text_fit import (
    ELLIPSIS,
    METRIC_VALUE_SCALE,
    cut_to_lines,
    lines_needed,
    metric_columns,
    row_height,
    text_width,
    wrapped,
)

REASON = "Refund C-1061 for Kim Minsu: pay 480,000 KRW (requested 480,000)? approve / reject / edit"


def test_a_text_wraps_between_words_within_the_width():
    lines = wrapped(REASON, 243)
    assert " ".join(lines) == REASON and all(text_width(line) <= 243 for line in lines)
    assert lines_needed(REASON, 260) == len(lines) == 3
    assert lines_needed("short", 260) == 1


def test_a_korean_text_is_estimated_wider_than_a_latin_one_of_as_many_characters():
    assert text_width("가나다라") > text_width("abcd") * 1.8


def test_a_text_longer_than_its_lines_is_cut_with_an_ellipsis_and_a_short_one_is_whole():
    cut = cut_to_lines(REASON, 260, 2)
    assert cut.endswith(ELLIPSIS) and REASON.startswith(cut[:-1].rstrip())
    assert lines_needed(cut, 260) == 2
    assert cut_to_lines("pay 5,000 KRW", 260, 2) == "pay 5,000 KRW"
    unbroken = "가" * 80  # no space: broken between characters, still two lines
    assert lines_needed(cut_to_lines(unbroken, 260, 2), 260) == 2


def test_rows_are_tall_enough_to_wrap_and_to_show_every_line():
    assert row_height(1) == row_height(2) == 65  # the grid wraps only above 64 px
    assert row_height(4) > row_height(3) > 65


def test_a_row_of_metrics_gives_a_long_word_the_width_its_type_needs():
    row = [("상태", "완료"), ("결과", "그대로 저장됨"), ("초안 라운드", "1"), ("계획 버전", "1")]
    weights = metric_columns(row)
    row_width = 772  # a 1280 px page's main block, less the gaps between four columns
    outcome = row_width * weights[1] / sum(weights)
    assert outcome >= text_width("그대로 저장됨") * METRIC_VALUE_SCALE > row_width / 4  # equal columns cut it
    assert weights[2] == text_width("초안 라운드")  # a digit's column is as wide as its label
    assert metric_columns([("", "")]) == [1.0]  # a weight is never zero


def test_an_address_wider_than_a_line_breaks_at_its_at_sign_or_a_dot_not_inside_a_name():
    text = "admin@example.com park@example.com"
    assert wrapped(text, 85) == ["admin@", "example.com", "park@", "example.com"]
    # The grid breaks a word only where its line ends: the cell says where, with a line break.
    assert cut_to_lines(text, 102, 4) == "admin@\nexample.com park@\nexample.com"
    assert wrapped("a.very-long.domain-name.example.org", 85)[0] == "a.very-long"  # the last place that fits
    assert wrapped("삭제하기(관리자)", 90) == ["삭제하기", "(관리자)"]


def test_a_cut_last_line_is_filled_with_what_follows_and_ends_where_a_part_ends():
    text = "may decide: admin@example.com (admin), park@example.com (senior approver)"
    assert cut_to_lines(text, 164, 2) == "may decide: admin@example.com…"
    assert cut_to_lines(text, 154, 2) == "may decide: admin@example…"  # ".co…" would end inside a part
    assert lines_needed(cut_to_lines(text, 154, 2), 154) == 2


def test_the_widest_letters_are_estimated_as_wide_as_they_are_drawn():
    """In the grid's 14 px font "W" is 11.0 px, "m" 11.6 px and "@" 11.9 px: a text of them is not a capital's
    8.5 px a letter, or a plan's row of "WWWW…" is drawn a line shorter than its text."""
    assert min(text_width(char) for char in "mwMW@%") >= 11.9
    assert lines_needed("W" * 200, 480) >= 200 * 11.0 / (480 - 17)
