"""What an agent looks like to the dashboard, the CLI and the API.

An :class:`AgentSpec` names an agent and holds four typed parts, each used by
named paths: :class:`RunPart` (what it needs to run), :class:`AskPart` (how it
is asked and answered), :class:`EditPart` (how its threads may be changed) and
:class:`ShowPart` (how it is shown). Its questions and answers are typed
:class:`Field` lists: the fields that start a run, the fields of a resume
answer, and the state keys ``update_state`` may set. Forms and CLI options are
generated from these, so no page or command hard-codes an agent. Every hook has
a default: no rule of the agent's own.
"""

from __future__ import annotations

import importlib
import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agents.db import TableSchema
from agents.decision_rights import DecisionRights
from agents.errors import InputError
from agents.identity import ANSWER, Identity, check_allowed
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, Text
from agents.texts import text as message
from agents.validation import (
    JSON_MAX_BYTES,
    check_json_value,
    parse_json_object,
    validate_int,
    validate_text,
    validate_thread_id,
)

FieldKind = Literal["text", "textarea", "int", "choice", "object", "list", "id"]
#: The size limit of an ``object`` field's value, encoded as JSON.
OBJECT_MAX_BYTES = 16 * 1024
#: The size limit of one whole update_state, encoded as JSON.
UPDATE_MAX_BYTES = JSON_MAX_BYTES


@dataclass(frozen=True)
class Field:
    """One typed input.

    Attributes:
        name: The key (state key, resume key or input key).
        kind: How it is entered and checked (``object`` is a JSON object, ``list`` a JSON array; ``id`` is an id in the
            thread-id alphabet, NFC-normalised, so every use of it sees the same text).
        label: English label; the UI looks up ``field.<name>`` for a translation.
        choices: Allowed values for ``choice``.
        minimum: Lower bound for ``int``.
        maximum: Upper bound for ``int``.
        max_length: Length limit for text.
        required: Whether the value must be given.
        default: Form default.
        help: One line shown under the input.
        cli_flag: CLI option name, when not ``--`` + name with dashes.
        trim: Whether spaces around a text are dropped; False for an answer compared exactly as given.
        typed_text: For ``int``: whether the value may be text a person typed (a command-line option, a text
            box: ``500,000``); False where it only ever comes as a JSON number (an answer, an update).
        empty: For ``id``: the refusal of an empty value, naming the id to give (a case id); a thread id's when None.
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
    trim: bool = True
    typed_text: bool = True
    empty: Text | None = field(default=None, compare=False)  # a Text holds a dict: kept out of the hash

    @property
    def flag(self) -> str:
        """The CLI option for this field."""
        return self.cli_flag or "--" + self.name.replace("_", "-")

    def validate(self, value: Any) -> Any:
        """Returns the value converted to its type, or raises InputError naming the field."""
        if self.kind == "int":
            return validate_int(value, self.name, minimum=self.minimum, maximum=self.maximum, text=self.typed_text)
        if self.kind == "choice":
            text = str(value).strip() if isinstance(value, str) else value
            if text not in self.choices:
                allowed = ", ".join(self.choices)
                raise InputError(self.name, message(STRINGS, "error.choice", allowed=allowed, value=repr(value)))
            return text
        if self.kind == "object":
            if isinstance(value, str):
                value = parse_json_object(value, self.name)
            if not isinstance(value, dict):
                raise InputError(self.name, message(STRINGS, "error.json_object", kind=type(value).__name__))
            return check_json_value(value, self.name, max_bytes=OBJECT_MAX_BYTES)
        if self.kind == "list":
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    raise InputError(self.name, message(STRINGS, "error.json_array", kind="text")) from None
            if not isinstance(value, list):
                raise InputError(self.name, message(STRINGS, "error.json_array", kind=type(value).__name__))
            return check_json_value(value, self.name, max_bytes=OBJECT_MAX_BYTES)
        if self.kind == "id":
            # Normalised here, once: a thread name, a ledger key and a uniqueness check built from
            # the same typed id must not differ in how its letters are composed (NFD against NFC).
            if not isinstance(value, str):
                raise InputError(self.name, message(STRINGS, "error.not_text", kind=type(value).__name__))
            ident = validate_thread_id(value, self.name, empty=self.empty)
            if len(ident) > self.max_length:
                too_long = message(STRINGS, "error.too_long", length=len(ident), limit=self.max_length)
                raise InputError(self.name, too_long)
            return ident
        multiline = self.kind == "textarea"
        return validate_text(value, self.name, max_length=self.max_length, multiline=multiline, trim=self.trim)


def validate_fields(fields: tuple[Field, ...], values: Mapping[str, Any]) -> dict[str, Any]:
    """Validates a whole form: unknown keys refused, required keys present, each typed."""
    known = {f.name: f for f in fields}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(unknown[0], message(STRINGS, "error.unknown_field", known=", ".join(known) or "-"))
    result: dict[str, Any] = {}
    for spec in fields:
        value = values.get(spec.name)
        if value is None or (isinstance(value, str) and not value.strip() and not spec.required):
            if spec.required:
                raise InputError(spec.name, message(STRINGS, "error.required"))
            continue
        result[spec.name] = spec.validate(value)
    return result


def validate_update(spec: AgentSpec, values: dict[str, Any], as_node: str | None) -> dict[str, Any]:
    """Checks an update_state request: known keys, right types, an existing node."""
    if not values:
        raise InputError("values", message(STRINGS, "error.no_update"))
    check_json_value(values, "values", max_bytes=UPDATE_MAX_BYTES)  # keys and values storable at all
    # Not ``__copy__``: LangGraph's copy takes no values and would drop these (a checkpoint is copied
    # as it is by ``restore_checkpoint``).
    edit = spec.edit
    if as_node is not None and as_node not in edit.as_nodes:
        allowed = ", ".join(edit.as_nodes)
        note = edit.as_node_note
        raise InputError("as_node", message(STRINGS, "error.as_node", node=repr(as_node), allowed=allowed, note=note))
    known = {f.name: f for f in edit.state_fields}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(unknown[0], message(STRINGS, "error.unknown_state_key", known=", ".join(known)))
    clean = {key: known[key].validate(value) for key, value in values.items()}
    check_json_value(clean, "values", max_bytes=UPDATE_MAX_BYTES)
    return clean


@dataclass(frozen=True)
class UpdateRequest:
    """An ``update_state`` as the agent's rules see it, after the fields were validated.

    Attributes:
        head: The thread's values at its head checkpoint.
        target: The values at the checkpoint being updated (the head, unless forking).
        values: The validated update.
        as_node: The node the update is attributed to (None: LangGraph's choice).
        forking: Whether an older checkpoint is updated (a fork) instead of the head.
        lang: The thread's run language: the language of any trace line the agent adds.
    """

    head: dict[str, Any]
    target: dict[str, Any]
    values: dict[str, Any]
    as_node: str | None
    forking: bool
    lang: str = DEFAULT_LANGUAGE


@dataclass(frozen=True)
class DeleteRequest:
    """A deletion as the agent's rules see it, read under the thread's lock before anything is deleted.

    Attributes:
        thread_id: The thread.
        head_checkpoint_id: Its head checkpoint.
        values: Its values at the head.
        status: ``waiting`` (a question waits), ``attention`` (it cannot finish by itself, or its end is
            not believable) or ``done``.
        reason: Why it is deleted, as the person gave it (trimmed), or None.
        actor: Who deletes it.
    """

    thread_id: str
    head_checkpoint_id: str
    values: dict[str, Any]
    status: str
    reason: str | None
    actor: Identity


def imported_on_call(module: str, name: str) -> Callable[..., Any]:
    """A function that imports ``module`` when first called and calls its ``name``.

    An agent's spec names its ``build_graph`` this way, so the registry, and every command that
    builds no graph (``threads``, ``inbox``, ``--help``), never imports the agent's graph module and
    LangGraph's (about half a second at a command's start): the graph module is imported by the
    first graph built.
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__module__ = module
    return call


# The defaults: what an agent with no rule of its own gets for each hook.


def _nothing(*args: Any) -> None:
    """Any check, authorisation or record an agent does not have: it allows everything, records nothing."""
    return None


def _no_text(*args: Any) -> str:
    return ""


def _values_as_input(values: dict[str, Any], lang: str) -> dict[str, Any]:
    return dict(values)


def _requested_or_new(values: dict[str, Any], requested: str | None) -> str:
    return requested or uuid.uuid4().hex


def _unsigned_input(graph_input: dict[str, Any], actor: Identity) -> dict[str, Any]:
    return graph_input


def _no_options(agent_settings: Any) -> dict[str, Any]:
    return {}


def _fields_as_answer(values: dict[str, Any]) -> Any:
    return dict(values)


def _case_values(values: dict[str, Any], question: Any) -> dict[str, Any]:
    return values


def _answer_allowed(actor: Identity, values: dict[str, Any], answer: Any) -> None:
    check_allowed(actor, ANSWER)


def _any_update(store: Any, request: UpdateRequest) -> dict[str, Any]:
    return request.values


def _no_deletions(store: Any) -> list[dict[str, Any]]:
    return []


def _finished(store: Any, thread_id: str, values: dict[str, Any]) -> tuple[str, str | Text]:
    return "finished", ""


@dataclass(frozen=True)
class AgentPage:
    """Where an agent's page is: the dashboard's navigation is built from these.

    Attributes:
        path: The page script, relative to the project root.
        icon: A Streamlit icon (``:material/...:`` or an emoji).
        url_path: The page's URL path.
    """

    path: str
    icon: str
    url_path: str


@dataclass(frozen=True)
class RunPart:
    """What an agent needs to run.

    Used by ``agents.runs.start_run`` (every path that starts a run: the pages, the sidebar form, the
    CLI's ``run``, the API, ``agents.answered_start``), by ``agents.runtime`` (its graphs, settings and
    tables) and by ``agents.langgraph_app``; the CLI's ``run <agent>`` flags come from ``start_fields``.

    Attributes:
        build_graph: ``(checkpointer, *, store=None, **options) -> compiled graph``.
        start_fields: Typed fields that start a run.
        make_input: ``(validated start values, run language) -> graph input`` (default: the values).
        thread_for: ``(validated start values, requested thread id or None) -> thread id`` (default: the
            requested id, else a new one).
        fresh_start: Whether starting a run first deletes that thread (the robot's "start over"): a finished
            one; an unfinished one is refused unless its deletion was confirmed (``start_run``'s
            ``delete_unfinished``), and then recorded.
        check_start: ``(store, validated start values)``; raises InputError when the agent
            refuses to start with them (e.g. a refund case id that was already paid). Run before
            the thread's lease is taken and again under it; it writes nothing.
        claim_start: ``(store, validated start values, thread id)``: run once under the thread's lease,
            after every check passed and before the run saves anything; it may record what makes the
            start unique beyond its thread (the refund's case → thread row) and raises InputError when
            another thread holds it (a start racing this one on another thread).
        sign_input: ``(graph input, actor) -> graph input``: records who starts a run (the
            refund's ``requested_by``, for four eyes).
        settings_from: Parses the raw setting values into the agent's frozen, typed settings
            (``Settings.agent(name)``), refusing a bad value with the setting named.
        options_from_settings: ``agent settings -> graph build options`` (hashable values).
        tables: The agent's own tables, created by the store beside the core ones.
        max_concurrency: Parallel tasks per superstep (None: LangGraph's default).
        default_thread_id: The thread the page opens first.
    """

    build_graph: Callable[..., Any]
    start_fields: tuple[Field, ...] = ()
    make_input: Callable[[dict[str, Any], str], dict[str, Any]] = field(default=_values_as_input)
    thread_for: Callable[[dict[str, Any], str | None], str] = field(default=_requested_or_new)
    fresh_start: bool = False
    check_start: Callable[[Any, dict[str, Any]], None] = field(default=_nothing)
    claim_start: Callable[[Any, dict[str, Any], str], None] = field(default=_nothing)
    sign_input: Callable[[dict[str, Any], Identity], dict[str, Any]] = field(default=_unsigned_input)
    settings_from: Callable[[Mapping[str, str]], Any] = field(default=_nothing)
    options_from_settings: Callable[[Any], dict[str, Any]] = field(default=_no_options)
    tables: tuple[TableSchema, ...] = ()
    max_concurrency: int | None = None
    default_thread_id: str | None = None


@dataclass(frozen=True)
class AskPart:
    """How the agent is asked and answered.

    Used by ``agents.runs`` on every path that answers a waiting question (the pages, the sidebar form,
    the CLI's ``resume``, the API, ``agents.answered_start``), in this order: ``check_resume``, then, per
    question, ``question_values``, ``check_answer``, ``check_offered`` and ``authorize_answer``; and by
    ``agents.queue_rights`` and ``agents.notify`` (``decision_rights``; ``asked_amount``).

    Attributes:
        check_resume: Validates a raw resume value (text or dict) and returns it.
        resume_fields: Typed fields of a resume answer (the sidebar form, ``resume --field``).
        make_resume: ``validated resume fields -> resume value`` (default: the fields as a dict).
        check_answer: ``(current values, checked resume value)``; raises InputError when the
            answer is invalid for this thread's state (e.g. an edit above the requested amount).
            Also called with the graph input alone, for an answer given with the start
            (``agents.answered_start``): what it needs and cannot find there, it leaves to the pause.
        check_offered: ``(the waiting question as the run asked it, checked resume value)``; raises
            InputError when that pause does not offer the answer (e.g. ``rework`` at the lecture
            planner's round limit), so it is refused before anything is written.
        question_values: ``(current values, a waiting question) -> values``: what an answer to that
            question is checked against (``check_answer``, ``authorize_answer``) when a thread asks
            several at once (a refund item's question is about that item's amount).
        authorize_answer: ``(actor, current values, checked resume value)``; raises
            ``PermissionDenied`` when the actor may not give this answer (default: an approver
            or above may answer). The refund agent checks the approver's limit and four eyes.
        signed_field: The resume field and state key that names who decides (the refund's
            ``approver``): for a signed-in actor ``agents.runs`` sets it to their email,
            whatever was typed; in local mode it is recorded as typed.
        decision_rights: ``(roles, head values, waiting since, deadline in seconds or None, now, the questions
            it waits on at its head) -> DecisionRights or None``: who in the roles file may decide a waiting
            item and to whom it escalated past its deadline (the refund's approvers by limit, weighed on each
            waiting item of a case with several); None: the agent states none.
        recorded_payout: ``(store, a question as the run asked it) -> amount or None``: what the agent's
            own ledger holds paid for that question (the refund case's or item's payout; None: not paid),
            read when a run that answered it failed: a step that committed its payout and failed before
            its result was saved has paid, and a step that pays may fail after the answer's own task
            finished; ``agents.batch`` reports what the ledger holds. None: the agent keeps no ledger.
        asked_amount: ``(the questions a thread waits on at once, as the run asked them) -> amount``: what they
            ask for together (the refund's ``agents.refund.amounts.asked_amount``: its waiting items' amounts
            added up), which a notification of a thread that asks several questions at once states
            (``agents.notify``). None: the agent states no amount.
    """

    check_resume: Callable[[Any], Any]
    resume_fields: tuple[Field, ...] = ()
    make_resume: Callable[[dict[str, Any]], Any] = field(default=_fields_as_answer)
    check_answer: Callable[[dict[str, Any], Any], None] = field(default=_nothing)
    check_offered: Callable[[Any, Any], None] = field(default=_nothing)
    question_values: Callable[[dict[str, Any], Any], dict[str, Any]] = field(default=_case_values)
    authorize_answer: Callable[[Identity, dict[str, Any], Any], None] = field(default=_answer_allowed)
    signed_field: str | None = None
    decision_rights: Callable[..., DecisionRights | None] = field(default=_nothing)
    recorded_payout: Callable[[Any, Any], int | None] | None = None
    asked_amount: Callable[[Sequence[Any]], int] | None = None

    @property
    def states_rights(self) -> bool:
        """Whether the agent states who may decide its waiting items (it gives ``decision_rights``)."""
        return self.decision_rights is not _nothing


@dataclass(frozen=True)
class EditPart:
    """How a thread's history may be changed: updates, forks, re-runs and deletions.

    Used by ``agents.runs`` (``update_state``, fork, restore, re-run: the explorer, the sidebar form,
    the CLI, the API), ``agents.spec.validate_update``, ``agents.deletion.delete_thread`` and
    ``agents.notify.scan`` (``deleted_unfinished``). The defaults allow no update (no state field) and
    refuse nothing else.

    Attributes:
        state_fields: State keys ``update_state`` may set, with their types.
        as_nodes: Nodes an update may be attributed to.
        as_node_note: Appended to the refusal of an ``as_node`` outside ``as_nodes`` (why): a :class:`Text`, so the
            refusal is in the reader's language (a plain string is shown as written).
        check_update: ``(store, UpdateRequest) -> update``; raises InputError when the agent
            refuses the update (e.g. of a settled refund) and returns the update to apply (an
            agent may add to it, e.g. when a decision was made and a trace line).
        authorize_update: ``(actor, UpdateRequest)``; raises ``PermissionDenied`` for an update
            the actor may not make beyond the admin right ``agents.runs`` checks (four eyes).
        continue_after_update: Whether an update runs the thread on at once, so that it never
            rests edited and unseen (the refund agent goes straight back to its approver).
        check_rerun: ``(store, head values)``; raises InputError when the thread may not be
            re-run or forked from an older checkpoint (e.g. a refund that was paid).
        check_delete: ``(store, DeleteRequest)``; raises InputError when the agent refuses the deletion
            (an unfinished refund deleted without a reason). Run before and under the thread's lock.
        record_delete: ``(store, DeleteRequest)``: records what must outlive the thread (the refund's
            deletion audit row), under the thread's lock, before its checkpoints are deleted.
        deleted_unfinished: ``store -> rows``: the recorded deletions of unfinished threads, each
            announced once as a ``deleted`` notification.
    """

    state_fields: tuple[Field, ...] = ()
    as_nodes: tuple[str, ...] = ()
    as_node_note: str | Text = ""
    check_update: Callable[[Any, UpdateRequest], dict[str, Any]] = field(default=_any_update)
    authorize_update: Callable[[Identity, UpdateRequest], None] = field(default=_nothing)
    continue_after_update: bool = False
    check_rerun: Callable[[Any, dict[str, Any]], None] = field(default=_nothing)
    check_delete: Callable[[Any, DeleteRequest], None] = field(default=_nothing)
    record_delete: Callable[[Any, DeleteRequest], None] = field(default=_nothing)
    deleted_unfinished: Callable[[Any], list[dict[str, Any]]] = field(default=_no_deletions)


@dataclass(frozen=True)
class ShowPart:
    """How the agent is shown: its page, its words, and the outcome of a finished thread.

    Used by the dashboard (``dashboard.navigation``, ``dashboard.i18n``, the home page's links), by
    ``agents.lifecycle`` and ``agents.summarytable`` (the inbox's question, a thread's outcome) and by
    ``agents.notify`` (a notification's link).

    Attributes:
        page: The agent's page (script, icon, URL path); its navigation title is ``nav.<name>``.
        strings: The agent's UI strings, ``{key: (english, korean)}``, merged into the catalogue.
        question_text: ``interrupt payload -> Text or None``: the question as a translatable text, so an
            inbox shows it in the reader's language (None: the question as the run wrote it).
        questions_text: ``(the questions a thread waits on at once, as the run asked them) -> Text or None``:
            why it waits, all of them together (a refund case: how many of its items wait, and their sum), the
            inbox's reason beside its count (``agents.lifecycle``); None: its first question's words.
        finished_outcome: ``(store, thread id, values of a finished head) -> (outcome, problem)``:
            the agent's outcome, or, when the end is not believable, a problem in words (a ``Text``
            when it has a translation). Default: ``finished``.
        outcome_key: ``(values of a finished head) -> key`` of the agent's own rows ``finished_outcome``
            reads (the refund's case id; empty when it reads none), so a kept outcome is checked against them.
        outcome_mark: ``(store, key) -> mark``: those rows as they are now, as text that changes whenever
            they do (``agents.summarytable`` keeps an outcome only while its mark is the same).
        outcome_marks: ``(store, keys) -> key → mark``: the same for many keys in a few queries
            (a cold start checks every kept outcome); None: ``outcome_mark`` once per key.
    """

    page: AgentPage
    strings: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    question_text: Callable[[Any], Text | None] = field(default=_nothing)
    questions_text: Callable[[Sequence[Any]], Text | None] = field(default=_nothing)
    finished_outcome: Callable[[Any, str, dict[str, Any]], tuple[str, str | Text]] = field(default=_finished)
    outcome_key: Callable[[dict[str, Any]], str] = field(default=_no_text)
    outcome_mark: Callable[[Any, str], str] = field(default=_no_text)
    outcome_marks: Callable[[Any, Sequence[str]], dict[str, str]] | None = None

    def marks_of(self, store: Any, keys: Sequence[str]) -> dict[str, str]:
        """Outcome key → :attr:`outcome_mark` now, for each of ``keys`` (through :attr:`outcome_marks` when given)."""
        if self.outcome_marks is not None:
            return self.outcome_marks(store, keys)
        return {key: self.outcome_mark(store, key) for key in keys}


@dataclass(frozen=True)
class AgentSpec:
    """An agent as the dashboard, the CLI and the API see it: a name and four parts.

    Attributes:
        name: Registry key, also written to every checkpoint's metadata.
        title: English title (the UI translates ``agent.<name>.title``).
        description: English one-line description.
        run: What it needs to run (:class:`RunPart`).
        ask: How it is asked and answered (:class:`AskPart`).
        show: How it is shown (:class:`ShowPart`).
        edit: How its threads may be changed (:class:`EditPart`; default: no update, nothing refused).
    """

    name: str
    title: str
    description: str
    run: RunPart
    ask: AskPart
    show: ShowPart
    edit: EditPart = field(default_factory=EditPart)
