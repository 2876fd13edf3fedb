"""Text for people that the agents layer writes: the run languages and translatable messages.

A run speaks the language it started in (:data:`LANGUAGES`; English when none
is recorded). Text that is made now and read later, in whichever language the
reader's screen is in (an error message, an inbox reason), is a :class:`Text`:
a catalogue key, its parameters and both templates, so the dashboard and the
CLI render it in their own language. The templates live in the strings modules
(``agents/strings.py``, each agent's ``strings.py``), which the dashboard's
catalogue merges, so every key it can show has its Korean beside its English.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The languages a run can speak, and the one it speaks when none was chosen.
LANGUAGES = ("en", "ko")
DEFAULT_LANGUAGE = "en"
#: The run config's (and so every checkpoint's) metadata key of the run language.
LANGUAGE_METADATA_KEY = "lang"


def language_or_default(value: object) -> str:
    """``value`` when it names a language, else :data:`DEFAULT_LANGUAGE` (a thread saved before languages)."""
    return value if isinstance(value, str) and value in LANGUAGES else DEFAULT_LANGUAGE


def pick(pair: tuple[str, str], lang: str) -> str:
    """The Korean of an ``(english, korean)`` pair for ``ko``, else the English."""
    return pair[1] if lang == "ko" else pair[0]


#: Korean particles a template may attach to a value (``{case:을/를}``): the form after a final consonant,
#: then the form after a vowel (``으로/로`` also takes ``로`` after a final ㄹ), and both at once, the
#: way Korean writes them when the end of the word cannot be read.
PARTICLES = {
    "을/를": "을(를)",
    "이/가": "이(가)",
    "은/는": "은(는)",
    "과/와": "과(와)",
    "으로/로": "(으)로",
    "이라는/라는": "(이)라는",
    "이라고/라고": "(이)라고",
}
#: How the final digit of an id is read: 영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구 (``C-1080`` ends 팔십/공: 을).
_DIGIT_ENDINGS = {"0": "consonant", "1": "rieul", "3": "consonant", "6": "consonant", "7": "rieul", "8": "rieul"}
#: A Latin word's final letter as Korean reads it: ``kim`` 킴, ``lee`` 리, ``c1`` 씨일, ``l`` 엘.
_LATIN_ENDINGS = {"l": "rieul", "m": "consonant", "n": "consonant"}


def final_sound(word: str) -> str:
    """How ``word`` ends when read in Korean: ``consonant``, ``rieul`` (a final ㄹ), ``vowel``, or ``""`` (unknown).

    Quotes, brackets and other marks at the end are skipped (``'yes'`` ends in s). A Hangul syllable's
    own final consonant counts; a digit and a Latin letter are read as a Korean reader says them.
    """
    for char in reversed(word):
        if "가" <= char <= "힣":
            final = (ord(char) - ord("가")) % 28
            return "vowel" if final == 0 else "rieul" if final == 8 else "consonant"
        if char.isdigit() and char.isascii():
            return _DIGIT_ENDINGS.get(char, "vowel")
        if char.isascii() and char.isalpha():
            return _LATIN_ENDINGS.get(char.lower(), "vowel")
        if char.isalnum():  # another script: its reading is not known here
            return ""
    return ""


def particle(word: str, pair: str) -> str:
    """The particle of ``pair`` (one of :data:`PARTICLES`) that follows ``word``; both, as 을(를), when unknown."""
    after_consonant, after_vowel = pair.split("/")
    sound = final_sound(word)
    if sound == "rieul" and pair == "으로/로":
        return after_vowel
    if sound in ("consonant", "rieul"):
        return after_consonant
    if sound == "vowel":
        return after_vowel
    return PARTICLES[pair]


class _ParticleFormatter(string.Formatter):
    """``str.format`` where a format spec of :data:`PARTICLES` appends the particle the value's end asks for."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in PARTICLES:
            shown = format(value)
            return shown + particle(shown, format_spec)
        return str(super().format_field(value, format_spec))


_FORMATTER = _ParticleFormatter()
_PARTICLE_FIELD = re.compile(r":(?:" + "|".join(map(re.escape, PARTICLES)) + r")\}")


@functools.lru_cache(maxsize=4096)
def _has_particles(template: str) -> bool:
    return _PARTICLE_FIELD.search(template) is not None


def fill(template: str, values: Mapping[str, Any]) -> str:
    """``template`` formatted with ``values``; a Korean particle field (``{case:을/를}``) fits the value's end.

    Every path that formats a catalogue string goes through here (:func:`say`, :meth:`Text.render`, the
    dashboard's ``t``), so "건-1080을" and "kim이" are right wherever the text is shown.
    """
    return _FORMATTER.vformat(template, (), values) if _has_particles(template) else template.format(**values)


def say(strings: Mapping[str, tuple[str, str]], key: str, lang: str, /, **params: Any) -> str:
    """The string ``key`` of ``strings`` in ``lang``, formatted with ``params`` (what an agent writes now)."""
    return fill(pick(strings[key], lang), params)


@dataclass(frozen=True)
class Text:
    """A message for people, rendered when it is shown, in the reader's language.

    Attributes:
        key: Its catalogue key.
        templates: ``(english, korean)``, ``str.format`` templates of ``params``.
        params: The values; a :class:`Text` among them is rendered in the same language.
    """

    key: str
    templates: tuple[str, str]
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang`` (English for any other code)."""
        values = {name: value.render(lang) if isinstance(value, Text) else value for name, value in self.params.items()}
        return fill(pick(self.templates, lang), values)

    def __str__(self) -> str:
        return self.render(DEFAULT_LANGUAGE)


def text(strings: Mapping[str, tuple[str, str]], key: str, /, **params: Any) -> Text:
    """The :class:`Text` of ``key`` in ``strings`` with ``params``."""
    return Text(key, strings[key], params)


def render(value: object, lang: str) -> str:
    """``value`` in ``lang``: a :class:`Text` (or anything with ``render(lang)``) rendered, else ``str(value)``."""
    renderer = getattr(value, "render", None)
    return str(renderer(lang)) if callable(renderer) else str(value)


#: How a space is drawn in :func:`verbatim` (U+2423 OPEN BOX, the usual sign of a typed space).
VISIBLE_SPACE = "\u2423"


def verbatim(value: object) -> str:
    """A received text exactly as it came, quoted, every space and invisible character made visible.

    ``"yes "`` reads ``'yes␣'``: Python's ``repr`` already escapes what is not printable (a tab, a
    line break, a no-break or ideographic space, a zero-width space), and a plain space is drawn as
    :data:`VISIBLE_SPACE`. An open box that was itself typed is escaped (``\\u2423``), so the two
    never read alike.
    """
    return repr(value).replace(VISIBLE_SPACE, "\\u2423").replace(" ", VISIBLE_SPACE)
