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


def say(strings: Mapping[str, tuple[str, str]], key: str, lang: str, /, **params: Any) -> str:
    """The string ``key`` of ``strings`` in ``lang``, formatted with ``params`` (what an agent writes now)."""
    return pick(strings[key], lang).format(**params)


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
        return pick(self.templates, lang).format(**values)

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
