"""How many lines a text takes in a table cell of a given width, and a text cut to a number of lines.

Streamlit's grid draws on a canvas: a cell's text wraps (in rows taller than 4rem) but is never measured for
us, so a row's height and a cut are chosen from an estimate of each character's width in the grid's 14 px
font. The estimate errs wide (a Latin capital or digit as 8.5 px, the far wider "W", "m" or "@" as 12 px, a
Hangul or CJK character as 14.5 px), so a text said to fit in n lines does: at worst a cut is a word shorter
than it had to be.
"""

from __future__ import annotations

import unicodedata

#: The mark that ends a cut text.
ELLIPSIS = "…"
#: A grid cell's text padding, left and right together, in pixels.
CELL_PADDING = 17
#: The grid's font size in pixels, the size :func:`text_width` estimates for (:func:`text_px` scales it).
GRID_FONT = 14


#: The letters and signs far wider than the others in the grid's font (Source Sans, 14 px, as Chromium draws it):
#: "W" 11.0 px, "M" 10.2 px, "m" 11.6 px, "w" 10.1 px, "@" 11.9 px, "%" 11.5 px, where no other capital is over
#: 9.3 px. Estimated as an ordinary capital, a text of them ("WWWW…") took more lines than estimated.
WIDE = "mwMW@%&"


def char_width(char: str) -> float:
    """An upper estimate of ``char``'s width in pixels in the grid's 14 px font."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 14.5
    if char.isspace():
        return 3.5
    if char in WIDE:
        return 12.0
    if char.isupper() or char.isdigit():
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
    return text_width(text) * font_size / GRID_FONT


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


#: Where a word wider than a line is broken inside it, when it can be: after an email's "@" (first: its name
#: whole on one line, ``admin@`` / ``example.com``), a path's "/", an id's "-" or "_", and before a domain's or a
#: file's "." or a bracket (``삭제하기`` / ``(관리자)``); only a word with no such place within a line is broken
#: between characters, as the grid breaks it.
BREAK_AFTER, BREAK_BEFORE = "@/-_", ".("


def wrapped(text: str, width: float) -> list[str]:
    """``text`` wrapped into lines of at most ``width`` pixels, between words (a word wider than a line is
    broken inside it, at :data:`BREAK_AFTER` / :data:`BREAK_BEFORE` when it can be, else between characters)."""
    return [line for line, _inside in _layout(text, width)]


def _layout(text: str, width: float) -> list[tuple[str, bool]]:
    """:func:`wrapped`'s lines, each with whether it ends inside a word (the next line goes on with it)."""
    lines: list[tuple[str, bool]] = []
    line = ""
    for word in " ".join(text.split()).split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate) <= width:
            line = candidate
            continue
        if text_width(word) <= width:  # a word that fits a line starts the next one, as the grid does
            if line:
                lines.append((line, False))
            line = word
            continue
        # A word wider than any line: its first piece ends this line when a break point fits there.
        pieces = _pieces(word, width, width - text_width(f"{line} "), points_only=True) if line else None
        if pieces is None:
            if line:
                lines.append((line, False))
            line = ""
            pieces = _pieces(word, width, width, points_only=False) or [word]
        first, *rest = pieces
        line = f"{line} {first}" if line else first
        for piece in rest:
            lines.append((line, True))
            line = piece
    if line or not lines:
        lines.append((line, False))
    return lines


def _pieces(word: str, width: float, room: float, *, points_only: bool) -> list[str] | None:
    """``word`` in pieces of at most ``width`` pixels, the first at most ``room``: each as long as fits, ended at
    the last break point that fits, else at the last character that fits; None when ``points_only`` and no
    break point fits the first piece."""
    pieces: list[str] = []
    rest, limit = word, room
    while text_width(rest) > limit:
        fit = 0
        while fit < len(rest) and text_width(rest[: fit + 1]) <= limit:
            fit += 1
        points = [i for i in range(1, fit + 1) if i < len(rest) and _breaks_at(rest, i)]
        if not points and points_only:
            return None
        at_sign = [i for i in points if rest[i - 1] == "@"]  # an address's name whole, then its domain
        cut = (at_sign or points)[-1] if points else max(fit, 1)  # a character wider than a line still takes one
        pieces.append(rest[:cut])
        rest, limit, points_only = rest[cut:], width, False
    pieces.append(rest)
    return pieces


def _breaks_at(word: str, index: int) -> bool:
    """Whether ``word`` may break before ``word[index]``."""
    return word[index - 1] in BREAK_AFTER or word[index] in BREAK_BEFORE


def lines_needed(text: str, column_width: float) -> int:
    """How many lines ``text`` takes in a grid column ``column_width`` pixels wide."""
    return len(wrapped(text, column_width - CELL_PADDING))


def cut_to_lines(text: str, column_width: float, lines: int) -> str:
    """``text`` as it fits ``lines`` lines of a grid column ``column_width`` pixels wide: whole when it
    fits, else its last line filled with what follows and cut, where a word or an address's part ends when
    one is near, and ended with "…".

    Where a line ends inside a word (an email broken after its "@"), the text has a line break: the grid
    breaks a text only between words, or a word wider than its line wherever that line ends; with the break
    written in, it breaks the word where it is broken here. Lines that end between words are joined by a space
    (the grid's own wrapping, in its narrower real font, fits at least as much on each).
    """
    width = column_width - CELL_PADDING
    laid = _layout(text, width)
    if len(laid) <= lines:
        return _joined(laid)
    rest = _joined(laid[lines - 1 :]).replace("\n", "")  # the last line and all after it, as one line
    last = ""
    for char in rest:
        if text_width(last + char + ELLIPSIS) > width:
            break
        last += char
    ends = [i for i in range(1, len(last)) if last[i] == " " or _breaks_at(last, i)]
    if ends and text_width(last[: ends[-1]]) > width / 2:  # end where a word or a part ends when it costs little
        last = last[: ends[-1]]
    return _joined([*laid[: lines - 1], (last.rstrip(" ,;:·."), False)]) + ELLIPSIS


def _joined(laid: list[tuple[str, bool]]) -> str:
    """Lines as one cell's text: a line break after a line that ends inside a word, else a space."""
    return "".join(line + ("\n" if inside else " ") for line, inside in laid[:-1]) + laid[-1][0]


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
