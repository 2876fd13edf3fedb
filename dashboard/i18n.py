"""The UI string catalogue (English and Korean) and the ``t()`` lookup.

Strings live in the modules of :mod:`dashboard.strings` (the frame and the
generic pages) and in each registered agent's ``AgentSpec.show.strings`` (its page),
each a ``{key: (english, korean)}`` dict, so a feature adds its own module
instead of editing a shared one. Every UI string goes through :func:`t`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace

import streamlit as st

from agents import strings as agents_strings
from agents.errors import FIELD_MESSAGE_KEY, InputError, UserError
from agents.registry import AGENTS
from agents.spec import AgentSpec
from agents.texts import Text, fill, render
from dashboard import strings as strings_package

LANGUAGES = {"en": "English", "ko": "한국어"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_KEY = "lang"


def catalogue() -> dict[str, tuple[str, str]]:
    """Every string of :mod:`dashboard.strings` and of every registered agent; duplicate keys are a bug."""
    key = tuple(id(spec) for spec in AGENTS.values())  # rebuilt only when an agent is (un)registered
    if key not in _catalogues:
        _catalogues[key] = _merged(tuple(AGENTS.values()))
    return _catalogues[key]


_catalogues: dict[tuple[int, ...], dict[str, tuple[str, str]]] = {}


def _merged(agents: tuple[AgentSpec, ...]) -> dict[str, tuple[str, str]]:
    sources: list[tuple[str, dict[str, tuple[str, str]]]] = []
    for module_info in pkgutil.iter_modules(strings_package.__path__):
        module = importlib.import_module(f"{strings_package.__name__}.{module_info.name}")
        sources.append((module_info.name, module.STRINGS))
    sources.append(("agents.strings", agents_strings.STRINGS))  # the agents layer's errors and statuses
    sources.extend((f"the {spec.name} agent", dict(spec.show.strings)) for spec in agents)
    merged: dict[str, tuple[str, str]] = {}
    for source, strings in sources:
        for key, pair in strings.items():
            if key in merged:
                raise KeyError(f"UI string {key!r} is defined twice (again in {source})")
            merged[key] = pair
    return merged


#: The language this session last wrote into the URL (``?lang=``).
URL_LANGUAGE_KEY = "lang:url"


def current_language() -> str:
    """The session's language code."""
    return str(st.session_state.get(LANGUAGE_KEY, DEFAULT_LANGUAGE))


def adopt_url_language() -> None:
    """Takes the language from ``?lang=`` when the URL brings a new one (a link, a reload, a typed URL).

    Called by the frame before its language switch is drawn. A value this session wrote itself, or one
    that names no language, changes nothing (the switch's own choice is not undone by the old URL).
    """
    requested = st.query_params.get(LANGUAGE_KEY)
    if requested in LANGUAGES and requested != st.session_state.get(URL_LANGUAGE_KEY):
        st.session_state[LANGUAGE_KEY] = requested
    st.session_state.setdefault(LANGUAGE_KEY, DEFAULT_LANGUAGE)


def keep_language_in_url() -> None:
    """Writes the session's language into the URL, so a reload, a copied link and a page change keep it."""
    language = current_language()
    if st.query_params.get(LANGUAGE_KEY) != language:
        st.query_params[LANGUAGE_KEY] = language
    st.session_state[URL_LANGUAGE_KEY] = language


#: Korean is set to wrap between words (어절), as Korean text is printed: a browser's default breaks a Hangul
#: word at any syllable ("멈/춥니다"). Streamlit sets ``word-break`` on its own text elements (a paragraph's
#: ``break-word``), so the rule names every element. A token longer than its line (an id) still wraps.
#: The hint Streamlit writes under a text box being typed in ("Press Enter to apply") is English in every
#: language and cannot be translated: a Korean page hides it (Enter still sends the text; no box here has a
#: character counter, the only other thing the hint's place holds).
KOREAN_STYLE = (
    '<style>[data-testid="stApp"] * { word-break: keep-all !important; overflow-wrap: break-word; }'
    ' [data-testid="InputInstructions"] { display: none; }</style>'
)


def language_style() -> None:
    """The session's language's line breaking (Korean between words); a style of ours, drawn where it is called."""
    if current_language() == "ko":
        st.html(KOREAN_STYLE)


def language_query() -> dict[str, str]:
    """The query parameter that carries the session's language in a link (none for the default)."""
    language = current_language()
    return {} if language == DEFAULT_LANGUAGE else {LANGUAGE_KEY: language}


def t(key: str, lang: str | None = None, **values: object) -> str:
    """The string ``key`` in the session's language, formatted with ``values``.

    An unknown key is shown as the key itself, so a missing translation is
    visible rather than fatal; ``tests/dashboard/test_i18n.py`` keeps the catalogue whole.
    """
    pair = catalogue().get(key)
    if pair is None:
        return key
    text = pair[1] if (lang or current_language()) == "ko" else pair[0]
    return fill(text, values) if values else text


def localized(value: object) -> str:
    """A message of the agents layer (an error, a thread's reason) in the session's language.

    A :class:`~agents.texts.Text` or an error with a text is rendered; anything else is ``str(value)``.
    A field named in it (``approver: is required``) is named by its label on the page, in the page's
    language (``승인자: 필수 항목입니다``), not by its code.
    """
    return render(_labelled(value), current_language())


#: Fields whose label on a page is not ``field.<name>``: the sidebar forms' own inputs, and the thread and the
#: checkpoint an action is on, by the words the sidebar names them with ("Thread … · checkpoint …").
FIELD_LABEL_KEYS = {
    "interrupt_id": "forms.resume.interrupt",
    "as_node": "forms.as_node",
    "values": "forms.raw_json",
    "thread_id": "forms.thread",
    "checkpoint_id": "forms.checkpoint",
}
#: Messages that say the field they name is none the form knows (a key typed in raw mode): it is named as typed,
#: never by the label another agent's form gives a field of that name.
UNKNOWN_FIELD_MESSAGES = frozenset({"error.unknown_field", "error.unknown_state_key"})
#: A form's own labels of fields (field name → catalogue key) while it reports its message.
_form_labels: ContextVar[Mapping[str, str] | None] = ContextVar("form_labels", default=None)


@contextmanager
def form_labels(**keys: str) -> Iterator[None]:
    """Within it, a message names these fields by the given catalogue keys' labels (a form of its own labels)."""
    token = _form_labels.set(keys)
    try:
        yield
    finally:
        _form_labels.reset(token)


def _label_key(field: str) -> str:
    """The catalogue key of the label of the form field ``field`` (which may not exist)."""
    return (_form_labels.get() or {}).get(field) or FIELD_LABEL_KEYS.get(field, f"field.{field}")


def field_label(field: str) -> str:
    """The label of the form field ``field`` in the session's language; the name itself when it has none."""
    key = _label_key(field)
    return t(key) if key in catalogue() else field


def _names_a_form_field(field: str, message: object) -> bool:
    """Whether ``message`` (what a field's message says of it) is about a field a form shows, so that its label
    names it: not when it says the field is unknown, nor when it is an agent's own message (its key starts
    with the agent's name) about a field none of that agent's forms has (neither a field of its spec nor one
    its strings label). The ``field.<name>`` labels are every agent's, so a key typed into another agent's raw
    form would otherwise read as that agent's field."""
    if field in FIELD_LABEL_KEYS or field in (_form_labels.get() or {}) or not isinstance(message, Text):
        return True
    if message.key in UNKNOWN_FIELD_MESSAGES:
        return False
    spec = AGENTS.get(message.key.split(".", 1)[0])
    if spec is None or f"field.{field}" in spec.show.strings:  # a label of its own: a field of its page's forms
        return True
    fields = (*spec.run.start_fields, *spec.ask.resume_fields, *spec.edit.state_fields)
    return any(known.name == field for known in fields)


def _labelled(value: object) -> object:
    """``value`` with every field it names (an :class:`InputError`'s, nested ones too) named by its label."""
    if isinstance(value, Text):
        params = {name: _labelled(param) for name, param in value.params.items()}
        field = params.get("field")
        if value.key == FIELD_MESSAGE_KEY and isinstance(field, str):
            if _names_a_form_field(field, params.get("message")):
                params["field"] = field_label(field)
        return _field_first_labelled(replace(value, params=params))
    if isinstance(value, UserError) and value.text is not None:
        return _labelled(value.text)
    if isinstance(value, InputError):  # a message given as plain English: the field is still named by its label
        return f"{field_label(value.field)}: {value.message}"
    return value


def _field_first_labelled(value: Text) -> Text:
    """``value`` whose own words start with a field's code (``thread_id: thread 'x' is not waiting…``, as the CLI
    says it) with the field named by its label, in each language (``Thread: thread 'x' …``, ``스레드: …``)."""
    for field in FIELD_LABEL_KEYS:
        code = f"{field}: "
        if all(template.startswith(code) for template in value.templates):
            key = _label_key(field)
            if key not in catalogue():
                return value
            english, korean = (t(key, lang).replace("{", "{{").replace("}", "}}") for lang in ("en", "ko"))
            en, ko = value.templates
            return replace(value, templates=(f"{english}: {en[len(code) :]}", f"{korean}: {ko[len(code) :]}"))
    return value


def t_or(key: str, fallback: str) -> str:
    """Like :func:`t`, with an English fallback for keys derived from data (field labels)."""
    return t(key) if key in catalogue() else fallback
