"""What an agent looks like to the dashboard and the CLI.

An :class:`AgentSpec` names an agent, builds its graph, and describes its
questions and answers as typed :class:`Field` lists: the fields that start a
run, the fields of a resume answer, and the state keys ``update_state`` may
set. Forms and CLI options are generated from these, so no page or command
hard-codes an agent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from agents.errors import InputError
from agents.settings import Settings
from agents.validation import parse_json_object, validate_int, validate_text

FieldKind = Literal["text", "textarea", "int", "choice", "object"]


@dataclass(frozen=True)
class Field:
    """One typed input.

    Attributes:
        name: The key (state key, resume key or input key).
        kind: How it is entered and checked (``object`` is a JSON object).
        label: English label; the UI looks up ``field.<name>`` for a translation.
        choices: Allowed values for ``choice``.
        minimum: Lower bound for ``int``.
        maximum: Upper bound for ``int``.
        max_length: Length limit for text.
        required: Whether the value must be given.
        default: Form default.
        help: One line shown under the input.
        cli_flag: CLI option name, when not ``--`` + name with dashes.
    """

    name: str
    kind: FieldKind = "text"
    label: str = ""
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0
    max_length: int = 200
    required: bool = True
    default: Any = None
    help: str = ""
    cli_flag: str | None = None

    @property
    def flag(self) -> str:
        """The CLI option for this field."""
        return self.cli_flag or "--" + self.name.replace("_", "-")

    def validate(self, value: Any) -> Any:
        """Returns the value converted to its type, or raises InputError naming the field."""
        if self.kind == "int":
            return validate_int(value, self.name, minimum=self.minimum, maximum=self.maximum)
        if self.kind == "choice":
            text = str(value).strip() if isinstance(value, str) else value
            if text not in self.choices:
                allowed = ", ".join(self.choices)
                raise InputError(self.name, f"must be one of {allowed}; got {value!r}")
            return text
        if self.kind == "object":
            if isinstance(value, str):
                value = parse_json_object(value, self.name)
            if not isinstance(value, dict):
                raise InputError(self.name, f"must be a JSON object, got {type(value).__name__}")
            return value
        return validate_text(value, self.name, max_length=self.max_length,
                             multiline=self.kind == "textarea")


def validate_fields(fields: tuple[Field, ...], values: Mapping[str, Any]) -> dict[str, Any]:
    """Validates a whole form: unknown keys refused, required keys present, each typed."""
    known = {f.name: f for f in fields}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(unknown[0], f"is not a known field; known: {', '.join(known) or 'none'}")
    result: dict[str, Any] = {}
    for spec in fields:
        value = values.get(spec.name)
        if value is None or (isinstance(value, str) and not value.strip() and not spec.required):
            if spec.required:
                raise InputError(spec.name, "is required")
            continue
        result[spec.name] = spec.validate(value)
    return result


def _no_options(settings: Settings) -> dict[str, Any]:
    return {}


def _any_update(values: dict[str, Any], update: dict[str, Any]) -> None:
    return None


def _any_start(store: Any, values: dict[str, Any]) -> None:
    return None


@dataclass(frozen=True)
class AgentSpec:
    """An agent as the dashboard and CLI see it.

    Attributes:
        name: Registry key, also written to every checkpoint's metadata.
        title: English title (the UI translates ``agent.<name>.title``).
        description: English one-line description.
        build_graph: ``(checkpointer, *, store=None, **options) -> compiled graph``.
        page: The page script that shows this agent, for links.
        start_fields: Typed fields that start a run.
        make_input: ``validated start values -> graph input``.
        thread_for: ``(validated start values, requested thread id or None) -> thread id``.
        fresh_start: Whether starting a run first deletes that thread (the robot's "start over").
        resume_fields: Typed fields of a resume answer.
        make_resume: ``validated resume fields -> resume value``.
        check_resume: Validates a raw resume value (text or dict) and returns it.
        state_fields: State keys ``update_state`` may set, with their types.
        as_nodes: Nodes an update may be attributed to.
        options_from_settings: Graph build options read from the settings.
        check_start: ``(store, validated start values)``; raises InputError when the agent
            refuses to start with them (e.g. a refund case id that was already paid).
        check_update: ``(current values, validated update)``; raises InputError when the
            agent refuses an update of its head in that state (e.g. a settled refund).
        max_concurrency: Parallel tasks per superstep (None: LangGraph's default).
        default_thread_id: The thread the page opens first.
    """

    name: str
    title: str
    description: str
    build_graph: Callable[..., Any]
    page: str
    start_fields: tuple[Field, ...]
    make_input: Callable[[dict[str, Any]], dict[str, Any]]
    thread_for: Callable[[dict[str, Any], str | None], str]
    resume_fields: tuple[Field, ...]
    make_resume: Callable[[dict[str, Any]], Any]
    check_resume: Callable[[Any], Any]
    state_fields: tuple[Field, ...]
    as_nodes: tuple[str, ...]
    fresh_start: bool = False
    options_from_settings: Callable[[Settings], dict[str, Any]] = field(default=_no_options)
    check_start: Callable[[Any, dict[str, Any]], None] = field(default=_any_start)
    check_update: Callable[[dict[str, Any], dict[str, Any]], None] = field(default=_any_update)
    max_concurrency: int | None = None
    default_thread_id: str | None = None
