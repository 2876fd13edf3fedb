"""How many lines a text takes in a table cell of a given width, and a text cut to a number of lines.

Streamlit's grid draws on a canvas: a cell's text wraps (in rows taller than 4rem) but is never measured for
us, so a row's height and a cut are chosen from an estimate of each character's width in the grid's 14 px
font. The estimate errs wide (a Latin capital or digit as 8.5 px, a Hangul or CJK character as 14.5 px), so a
text said to fit in n lines does: at worst a cut is a word shorter than it had to be.
"""

from __future__ import annotations

import unicodedata

#: The mark that ends a cut text.
ELLIPSIS = "…"
#: A grid cell's text padding, left and right together, in pixels.
CELL_PADDING = 17


def char_width(char: str) -> float:
    """An upper estimate of ``char``'s width in pixels in the grid's 14 px font."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 14.5
    if char.isspace():
        return 3.5
    if char.isupper() or char.isdigit() or char in "mwMW@%&":
        return 8.5
    if char.isalpha():
        return 7.0
    return 5.0  # punctuation


def text_width(text: str) -> float:
    """An upper estimate of ``text``'s width in pixels on one line."""
    return sum(char_width(char) for char in text)


def text_px(text: str, font_size: float) -> float:
    """An upper estimate of ``text``'s width in pixels on one line in a ``font_size`` px font
    (:func:`text_width`, made for 14 px, scaled)."""
    return text_width(text) * font_size / 14


def cut_in_middle(text: str, width_px: float, font_size: float) -> str:
    """``text`` whole when its estimated width (:func:`text_px`) fits ``width_px``, else cut in the middle with
    "…": its start and its end kept (a thread id's prefix and the characters that tell it from its
    neighbours), the longer half shortened first."""
    if text_px(text, font_size) <= width_px:
        return text
    head, tail = text[: len(text) // 2], text[len(text) // 2 :]
    while (head or tail) and text_px(f"{head}{ELLIPSIS}{tail}", font_size) > width_px:
        if len(head) > len(tail):
            head = head[:-1]
        else:
            tail = tail[1:]
    return f"{head}{ELLIPSIS}{tail}"


def wrapped(text: str, width: float) -> list[str]:
    """``text`` wrapped into lines of at most ``width`` pixels, between words (a word wider than a line is
    broken between characters, as the grid does)."""
    lines: list[str] = []
    line = ""
    for word in " ".join(text.split()).split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:  # a word that fits no line alone is broken where the line ends
            if text_width(line + char) > width and line:
                lines.append(line)
                line = ""
            line += char
    if line or not lines:
        lines.append(line)
    return lines


def lines_needed(text: str, column_width: float) -> int:
    """How many lines ``text`` takes in a grid column ``column_width`` pixels wide."""
    return len(wrapped(text, column_width - CELL_PADDING))


def cut_to_lines(text: str, column_width: float, lines: int) -> str:
    """``text`` as it fits ``lines`` lines of a grid column ``column_width`` pixels wide: whole when it
    fits, else cut at the end of the last line, a word boundary when one is near, and ended with "…"."""
    width = column_width - CELL_PADDING
    shown = wrapped(text, width)
    if len(shown) <= lines:
        return " ".join(text.split())
    kept = shown[: lines - 1]
    last = shown[lines - 1]
    while last and text_width(last + ELLIPSIS) > width:
        last = last[:-1]
    words = last.rsplit(" ", 1)
    if len(words) == 2 and text_width(words[0]) > width / 2:  # end on a whole word when it costs little
        last = words[0]
    return " ".join([*kept, last.rstrip(" ,;:·")]) + ELLIPSIS


#: The lowest row height in pixels at which the grid wraps a cell's text (Streamlit: ``rowHeight > 4rem``).
WRAPPING_ROW_HEIGHT = 65
#: A wrapped line of the grid's text, and a row's padding around its lines, in pixels.
LINE_HEIGHT, ROW_PADDING = 17, 18


def row_height(lines: int) -> int:
    """The height in pixels of grid rows that show ``lines`` lines of wrapped text whole (two at least: a row
    low enough for one line does not wrap)."""
    return max(WRAPPING_ROW_HEIGHT, lines * LINE_HEIGHT + ROW_PADDING)


#: A metric's value (``st.metric``, 2.25rem) and label (0.875rem) against the grid's 14 px font the widths
#: above are for: a width in the value's type is this many times the estimate. Both follow the root's size,
#: so the ratio holds in presenter mode's larger type too.
METRIC_VALUE_SCALE = 36 / 14


def metric_columns(metrics: list[tuple[str, str]]) -> list[float]:
    """Column weights for a row of metrics ``(label, value)``: each column's share of the row in proportion to
    the wider of its value and its label, estimated (:func:`text_width`).

    A metric's value stays on one line and is cut with "…" where its column ends, so equal columns cut a long
    word ("그대로 저장됨", "needs attention") beside columns that hold one digit. In proportion, every value
    fits whenever the whole row's estimates do, whatever the row's width and the root's font size.
    """
    return [max(text_width(value) * METRIC_VALUE_SCALE, text_width(label), 1.0) for label, value in metrics]
