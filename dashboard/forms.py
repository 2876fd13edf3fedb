"""Sidebar forms: resume, update_state and delete_thread, generic over agents.

Each form names the thread and the head checkpoint it was drawn for. The head
is remembered per session when the form is drawn; on submit, the operation
checks it under the thread's lock, so a form drawn before another tab (or
approver) acted is refused with a clear message instead of acting twice.

A form keeps the head it was drawn at for as long as the browser keeps it (:func:`armed_head`): what is
typed in a form stays in the browser, unsent, across every run of the page (a live refresh, another
control), so a run that shows a newer head cannot tell what the user typed while looking at the older
one. Such a form says it was drawn before the thread moved on, and its next submit is refused as stale,
naming both checkpoints; after that, or after this session's own action, it acts on the head shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import streamlit as st

from agents import lifecycle, readmodel, runs
from agents.db import Store
from agents.deletion import check_head
from agents.errors import InputError, RunFailedError, StaleFormError, ThreadNotFoundError, UserError, short_id
from agents.identity import ANSWER, CONTINUE, DELETE_THREAD, UPDATE_STATE
from agents.registry import get_agent
from agents.settings import Settings
from agents.spec import AgentSpec, Field
from agents.validation import confirms_thread_id, parse_answer, parse_json_object, parse_whole_number
from dashboard import auth
from dashboard.decision_view import refusal
from dashboard.formats import question_label
from dashboard.i18n import catalogue, localized, t, t_or
from dashboard.safe_markdown import escape_markdown
from dashboard.views import describe_status, question_id_caption, status_text

FLASH_KEY = "flash"
UNCHANGED = "—"
#: The thread this session's last successful action changed (see :func:`acted_here`).
ACTED_KEY = "forms:acted"
#: The same, for the sidebar's forms (:func:`sidebar_forms`): a page may take :data:`ACTED_KEY` first.
CHANGED_HERE_KEY = "forms:changed-here"


def flash(kind: str, message: str) -> None:
    """Queues a message for the next run of the page (after ``st.rerun``)."""
    st.session_state[FLASH_KEY] = (kind, message)


def show_flash(container: Any = st) -> None:
    """Shows, once, the message queued by :func:`flash`, as text (no Markdown, HTML, images or links).

    In a slot drawn on every run, message or not: an element that one run draws and the next does not
    moves every element after it, and the browser builds a box (an expander, a form, columns) that moves
    anew, empty, losing the focus and what was being typed in it.
    """
    slot = container.empty()
    queued = st.session_state.pop(FLASH_KEY, None)
    if queued:
        kind, message = queued
        getattr(slot, kind)(escape_markdown(message))


def field_label(field: Field) -> str:
    """A field's translated label."""
    return t_or(f"field.{field.name}", field.label or field.name)


def field_help(agent: str, form: str, field: Field) -> str | None:
    """A field's translated help line (``help.<agent>.<form>.<field>``; ``form`` is start, resume or state).

    The English of the agent's spec is the fallback; ``{minimum}`` and ``{maximum}`` are a number field's bounds.
    """
    if not field.help:
        return None
    key = f"help.{agent}.{form}.{field.name}"
    if key not in catalogue():
        return field.help
    return t(key, minimum=f"{field.minimum:,}", maximum=f"{field.maximum:,}")


def choice_label(agent: str, field: Field, value: object) -> str:
    """A choice's words (``choice.<agent>.<field>.<value>``); the value sent is the stored code itself."""
    return "" if value is None else t_or(f"choice.{agent}.{field.name}.{value}", str(value))


def node_label(agent: str, node: str) -> str:
    """An ``as_node`` choice: the node's name, with what it does in words where the language has them."""
    return node if node == UNCHANGED else t_or(f"node.{agent}.{node}", node)


def _drawn_key(form: str, thread_id: str) -> str:
    return f"forms:drawn:{form}:{thread_id}"


#: What :func:`drawn_head` returns when this session never drew the form for this thread: no
#: checkpoint id equals it, so ``agents.runs`` refuses a submit as stale (shown as "checkpoint unseen").
NOT_DRAWN = "unseen"


def drawn_head(form: str, thread_id: str, head: str | None) -> str | None:
    """The head this form showed on the previous run; records ``head`` for the next.

    A submit is checked against what the user saw, not against what the
    database holds now, which is what makes a stale form detectable. A form
    never drawn for this thread saw nothing (:data:`NOT_DRAWN`), so it acts on nothing.
    """
    key = _drawn_key(form, thread_id)
    expected = st.session_state.get(key, NOT_DRAWN)
    st.session_state[key] = head
    return expected


def submit_key(form: str, thread_id: str) -> str:
    """The key of ``form``'s submit button for ``thread_id``: in the session while the browser shows the form."""
    return f"{form}-submit-{thread_id}"


def _armed_key(form: str, thread_id: str) -> str:
    return f"forms:armed:{form}:{thread_id}"


def armed_head(form: str, thread_id: str, head: str, *, changed_here: bool = False) -> tuple[str | None, str]:
    """(the head a submit of ``form`` in this run is checked against, the head the form is drawn for now).

    What is typed in a form is not sent before its submit, and the browser keeps it across the page's runs
    (a live refresh, another control) for as long as it shows the form. So the head is the one the form
    was drawn at when it appeared, kept while the browser shows the form: a run that shows a newer head
    cannot know what was typed while the older one was shown, and the next submit is refused as stale,
    naming both. A submit (done or refused: the user is told), or this session's own action on the thread
    (``changed_here``), draws the form for ``head``. A form the previous run did not draw (its submit
    button's key is not in the session) appears now, empty: drawn for ``head``, never submitted from before.
    """
    key, submit = _armed_key(form, thread_id), submit_key(form, thread_id)
    if submit not in st.session_state:
        st.session_state[key] = head
        return NOT_DRAWN, head
    expected = st.session_state.get(key, NOT_DRAWN)
    drawn = head if st.session_state.get(submit) or changed_here or expected in (NOT_DRAWN, None) else expected
    st.session_state[key] = drawn
    return expected, str(drawn)


def mark_changed_here(thread_id: str) -> None:
    """Records that this session's own action changed ``thread_id`` (the sidebar's forms then follow its head)."""
    st.session_state[CHANGED_HERE_KEY] = thread_id


def changed_here(thread_id: str) -> bool:
    """Whether this session's own last action changed ``thread_id`` (kept until the sidebar's forms are drawn)."""
    return st.session_state.get(CHANGED_HERE_KEY) == thread_id


def shown_head(form: str, thread_id: str) -> str | None:
    """The head the page last drew ``form`` for, without recording anything.

    For a control inside a fragment (``st.fragment``): its reruns do not redraw the page, so what
    the user sees is the head of the page's last full run, which :func:`drawn_head` recorded.
    """
    return st.session_state.get(_drawn_key(form, thread_id))


#: Outcomes that end a run without doing what was asked (the robot refused): reported as a warning, not a success.
NOT_DONE_OUTCOMES = frozenset({"refused"})


def outcome_kind(result: runs.RunResult) -> str:
    """How a finished operation is reported: a warning when the run refused its action, else a success."""
    return "warning" if result.outcome in NOT_DONE_OUTCOMES else "success"


def refused_text(error: UserError) -> str:
    """A refused action's message: that nothing was done, and why, in the session's language.

    A form or control drawn before the thread moved on is refused in the pages' own words: the page drawn
    with the refusal shows the thread as it is (the CLI's and the API's words, which show nothing, say to
    reload), so it says to check it and send again if still wanted.
    """
    if isinstance(error, StaleFormError):
        seen, head = short_id(error.expected), short_id(error.found)
        return f"{t('forms.refused')} {t('forms.stale', thread=repr(error.thread_id), seen=seen, head=head)}"
    return f"{t('forms.refused')} {localized(error).removesuffix(t('forms.refused.tail'))}"


def show_run_failed(error: RunFailedError) -> None:
    """A run whose step raised: what failed, that what finished is saved, and that the thread, needing attention,
    is in the inbox (the error's own message, in the session's language)."""
    st.error(escape_markdown(localized(error)))


def act(
    expected: str | None,
    action: Callable[[str | None], str | tuple[str, str]],
    *,
    thread_id: str | None = None,
    refused_key: str | None = None,
) -> UserError | None:
    """Runs ``action(expected_head)``; reports its message (and reruns), a stale form, or bad input.

    ``action`` returns its message, reported as a success, or ``(kind, message)`` (see :func:`outcome_kind`).
    ``thread_id`` names the thread it changes: the next run knows the change was this session's own
    (:func:`acted_here`), not another tab's. With ``refused_key``, a refusal is kept in the session as
    ``(thread_id, message)`` for a thread's live part to draw under its controls until the page is drawn
    again (``decision_view.refusal``): the part's next run would otherwise take it away. Returns the refusal
    (None when the action was done or its run failed): after a stale one (:class:`StaleFormError`) a live part
    that kept controls for the old state draws the thread as it is.
    """
    try:
        reported = action(expected)
    except UserError as error:
        refused = refused_text(error)
        if refused_key is None:
            st.error(escape_markdown(refused))
        else:
            st.session_state[refused_key] = (thread_id, refused)
        return error
    except RunFailedError as error:
        show_run_failed(error)
        return None
    kind, message = reported if isinstance(reported, tuple) else ("success", reported)
    if thread_id is not None:
        st.session_state[ACTED_KEY] = thread_id
        mark_changed_here(thread_id)
    flash(kind, message)
    st.rerun()


def show_refusal(refused_key: str, thread_id: str) -> None:
    """Why the last click on ``thread_id``'s controls was refused (:func:`act` with ``refused_key``), in a slot
    drawn by every run of the thread's live part: it stays until the page is drawn again
    (``decision_view.forget``), where the part's next run would take away an error drawn by the click's run."""
    slot = st.empty()
    if (why := refusal(st.session_state, refused_key, thread_id)) is not None:
        slot.error(escape_markdown(why))


def acted_here(thread_id: str) -> bool:
    """Whether ``thread_id`` changed by this session's own last action; true once, on the run after it.

    A page that keeps controls drawn for an older head, to refuse them with a notice when someone else
    moved the thread on, asks this first: the user's own sidebar action is no one else's change.
    """
    if st.session_state.get(ACTED_KEY) == thread_id:
        del st.session_state[ACTED_KEY]
        return True
    return False


def status_word(result: runs.RunResult) -> str:
    """Where an operation left the thread, with the full reason when it needs attention."""
    return describe_status(result.status, result.outcome, localized(result.reason_text or result.reason))


def offered_choices(field: Field, question: Any) -> list[str]:
    """A choice field's choices that the waiting question offers (its ``options``), in the field's order.

    A pause that lists what it accepts (the lecture gate: rework, save, reject; its plan review:
    approve) is offered only those, so the form never proposes an answer the pause refuses. A question
    without such a list, or one that names none of the field's choices, leaves them all.
    """
    options = question.get("options") if isinstance(question, dict) else None
    if not isinstance(options, list):
        return list(field.choices)
    offered = [choice for choice in field.choices if choice in options]
    return offered or list(field.choices)


def _typed_input(agent: str, form: str, field: Field, key: str, optional: bool, question: Any = None) -> Any:
    label, help_text = field_label(field), field_help(agent, form, field)
    if field.kind == "choice":
        options = ([UNCHANGED] if optional else []) + offered_choices(field, question)
        value = st.selectbox(
            label,
            options,
            key=key,
            help=help_text,
            format_func=lambda option: option if option == UNCHANGED else choice_label(agent, field, option),
        )
        return None if value == UNCHANGED else value
    if field.kind == "int":
        # Text, read at the submit by the one grammar of typed amounts (:func:`read_typed_numbers`), not a
        # number box: the browser's number box reads ``1e9`` as 1 when it loses focus and ``1.5`` or ``-1`` as
        # it likes, and sends that without a word, so ``5e5`` meaning 500,000 paid 5 KRW. Nor bounds drawn in
        # the browser: the rule every path goes through refuses a number outside them, naming the field.
        default = "" if optional or field.default is None else f"{field.default:,}"
        typed = st.text_input(label, value=default, key=key, help=help_text)
        return typed if typed.strip() else None  # blank: not given, as an empty number box was
    if field.kind in ("textarea", "object", "list"):
        return st.text_area(label, key=key, help=help_text) or None
    return st.text_input(label, key=key, help=help_text) or None


def read_typed_numbers(
    fields: Iterable[Field], typed: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, UserError]]:
    """(the typed values to send, each ``int`` field's text read as a whole number; why each unreadable one is none).

    Read by the grammar of every typed amount (:func:`agents.validation.parse_whole_number`: ``500000`` and
    ``500,000``; never ``1e9``, ``1.5``, ``-1`` or ``12.000``). Text that reads as no whole number is sent as
    typed, as the refund page's edit box sends it (``dashboard.decision_view.edit_fields``): a form drawn for
    another head is then refused as stale first, whatever it holds, and the rules refuse the text itself, which
    :func:`said_as_read` says as the form read it.
    """
    numbers = {field.name for field in fields if field.kind == "int"}
    values: dict[str, Any] = dict(typed)
    unreadable: dict[str, UserError] = {}
    for name in numbers & set(typed):
        if isinstance(typed[name], str):
            try:
                values[name] = parse_whole_number(typed[name], name)
            except UserError as error:
                unreadable[name] = error
    return values, unreadable


@contextmanager
def said_as_read(unreadable: Mapping[str, UserError]) -> Iterator[None]:
    """Within it, the refusal of a field :func:`read_typed_numbers` could not read is why it could not."""
    try:
        yield
    except InputError as error:
        if error.field not in unreadable:
            raise
        raise unreadable[error.field] from error


def mode_toggle(key: str) -> bool:
    """The raw-mode switch of a form, outside the form so that switching redraws the form's fields at once.

    A form shows the fields of its mode only: typed fields, or the raw text, never both, so what is
    sent is what is shown. A successful submit turns raw mode off again (:func:`_raw_mode_done`).
    """
    if st.session_state.pop(f"{key}:done", False):  # set before the toggle is drawn: allowed
        st.session_state[key] = False
    raw_mode = st.toggle(t("forms.raw_mode"), key=key, help=t("forms.raw_mode.help"))
    st.caption(t("forms.mode.raw" if raw_mode else "forms.mode.typed"))
    return raw_mode


def _raw_mode_done(key: str) -> None:
    st.session_state[f"{key}:done"] = True


def resume_form(
    store: Store,
    settings: Settings,
    spec: AgentSpec,
    thread_id: str,
    expected: str | None,
    question: Any = None,
    waiting: tuple[tuple[str, Any], ...] = (),
    notice: str | None = None,
    idle: str | None = None,
) -> None:
    """The resume form: typed answer fields, or (in raw mode) a raw value, a JSON object or text.

    ``question`` is the waiting interrupt's value: a choice offers only the answers it lists.
    ``waiting`` is every waiting question as (interrupt id, value): the form names the one it answers,
    and when several wait, the user picks it (the answer is sent for that interrupt id alone).
    ``notice``: why a submit is refused (:func:`drawn_before`), under the title.
    ``idle``: the thread's status when nothing waits for an answer, said under the title before anything is
    typed (the form stays: a submit is refused by the rule every path has, saying why).
    """
    st.markdown(f"**{t('forms.resume.title')}**")
    _show_notice(notice)
    if idle:
        st.caption(escape_markdown(t("forms.resume.idle", status=idle)))
    raw_key = f"resume-raw-{thread_id}"
    raw_mode = mode_toggle(raw_key)
    interrupt_id: str | None = None
    if len(waiting) > 1:
        labels = {interrupt: question_label(interrupt, value) for interrupt, value in waiting}
        options: list[str] = list(labels)
        picked = st.selectbox(
            t("forms.resume.interrupt"),
            options,
            key=f"resume-interrupt-{thread_id}",
            format_func=lambda interrupt: labels.get(interrupt, interrupt),
        )
        interrupt_id = str(picked) if picked is not None else None
        question = dict(waiting).get(interrupt_id or "", question)
    elif waiting:
        question_id_caption(waiting[0][0])
    with st.form(f"resume-{thread_id}"):
        signed = None if auth.identity().local else spec.ask.signed_field  # recorded as the signed-in identity
        typed: dict[str, Any] = {}
        raw = ""
        if raw_mode:
            raw = st.text_area(t("forms.raw_value"), key=f"resume-rawvalue-{thread_id}", help=t("forms.raw_value.help"))
        else:
            typed = {
                f.name: _typed_input(
                    spec.name, "resume", f, f"resume-{f.name}-{thread_id}", optional=False, question=question
                )
                for f in spec.ask.resume_fields
                if f.name != signed
            }
        submitted = st.form_submit_button(t("forms.resume.submit"), key=submit_key("resume", thread_id))
    if submitted:

        def action(expected: str | None) -> tuple[str, str]:
            asked: dict[str, Any] = {"interrupt_id": interrupt_id, "expected_head": expected}
            actor = auth.identity()  # named at each call: tests/dashboard/test_pages_pass_actor.py reads them
            if raw_mode:
                answer = parse_answer(raw, "value")
                result = runs.resume_thread(store, settings, thread_id, answer, actor=actor, **asked)
            else:
                given = {k: v for k, v in typed.items() if v is not None}
                fields, unreadable = read_typed_numbers(spec.ask.resume_fields, given)
                with said_as_read(unreadable):
                    result = runs.resume_from_fields(store, settings, thread_id, fields, actor=actor, **asked)
            _raw_mode_done(raw_key)
            return outcome_kind(result), t("forms.resume.done", thread=thread_id, status=status_word(result))

        act(expected, action, thread_id=thread_id)


def update_form(
    store: Store, settings: Settings, spec: AgentSpec, thread_id: str, expected: str | None, notice: str | None = None
) -> None:
    """The update_state form: typed known keys or (in raw mode) raw JSON, and the ``as_node`` choice."""
    st.markdown(f"**{t('forms.update.title')}**")
    _show_notice(notice)
    raw_key = f"update-raw-{thread_id}"
    raw_mode = mode_toggle(raw_key)
    with st.form(f"update-{thread_id}"):
        typed: dict[str, Any] = {}
        raw = ""
        if raw_mode:
            raw = st.text_area(t("forms.raw_json"), key=f"update-rawvalue-{thread_id}", placeholder='{"amount": 50000}')
        else:
            typed = {
                f.name: _typed_input(spec.name, "state", f, f"update-{f.name}-{thread_id}", optional=True)
                for f in spec.edit.state_fields
            }
        as_node = st.selectbox(
            t("forms.as_node"),
            [UNCHANGED, *spec.edit.as_nodes],
            key=f"update-asnode-{thread_id}",
            help=t("forms.as_node.help"),
            format_func=lambda node: node_label(spec.name, node),
        )
        continue_after = st.checkbox(t("forms.update.continue"), key=f"update-continue-{thread_id}")
        submitted = st.form_submit_button(t("forms.update.submit"), key=submit_key("update", thread_id))
    if submitted:

        def action(expected: str | None) -> str:
            unreadable: dict[str, UserError] = {}
            if raw_mode:
                values = parse_json_object(raw, "values")
            else:
                given = {k: v for k, v in typed.items() if v is not None}
                values, unreadable = read_typed_numbers(spec.edit.state_fields, given)
            node = None if as_node == UNCHANGED else as_node
            me = auth.identity()
            with said_as_read(unreadable):
                result = runs.update_thread(
                    store, settings, thread_id, values, as_node=node, expected_head=expected, actor=me
                )
            if continue_after and result.status == "attention" and result.next:
                result = runs.continue_thread(
                    store, settings, thread_id, expected_head=result.head_checkpoint_id, actor=me
                )
            _raw_mode_done(raw_key)
            return t("forms.update.done", thread=thread_id, status=status_word(result))

        act(expected, action, thread_id=thread_id)


def delete_form(store: Store, thread_id: str, expected: str | None, notice: str | None = None) -> None:
    """The delete_thread form: the user types the thread id to confirm."""
    with st.form(f"delete-{thread_id}"):
        st.markdown(f"**{t('forms.delete.title')}**")
        _show_notice(notice)
        confirm = st.text_input(
            escape_markdown(t("forms.delete.confirm", thread=thread_id)), key=f"delete-confirm-{thread_id}"
        )
        reason = st.text_input(
            t("forms.delete.reason"), key=f"delete-reason-{thread_id}", help=t("forms.delete.reason_help")
        )
        submitted = st.form_submit_button(t("forms.delete.submit"), type="primary", key=submit_key("delete", thread_id))
    if submitted:

        def action(expected: str | None) -> str:
            if not confirms_thread_id(confirm, thread_id):
                raise UserError(t("forms.delete.mismatch", thread=thread_id))
            runs.delete_thread(store, thread_id, expected_head=expected, actor=auth.identity(), reason=reason)
            return t("forms.delete.done", thread=thread_id)

        act(expected, action, thread_id=thread_id)


def continue_button(store: Store, settings: Settings, thread_id: str, expected: str | None) -> None:
    """A run that stopped (a crash, an edit) and whose status says to continue it: one click, on every page."""
    status = lifecycle.thread_status(store, thread_id)
    if status is None or status.action != "continue":
        return
    if st.button(t("forms.continue.submit"), key=f"continue-{thread_id}", help=t("forms.continue.help")):

        def action(head_seen: str | None) -> str:
            done = runs.continue_thread(store, settings, thread_id, expected_head=head_seen, actor=auth.identity())
            return t("forms.continue.done", thread=thread_id, status=status_word(done))

        act(expected, action, thread_id=thread_id)


#: The sidebar's forms that hold typed values: each keeps the head it was drawn at (:func:`armed_head`).
TYPED_FORMS = ("resume", "update", "delete")


def drawn_before(drawn: str, head: str) -> str | None:
    """Why a form drawn at ``drawn`` is refused when sent, now that the page shows ``head``; None when they agree."""
    if drawn == head:
        return None
    return t("forms.drawn_before", drawn=short_id(drawn), head=short_id(head))


def _show_notice(notice: str | None) -> None:
    if notice:
        st.warning(escape_markdown(notice))


def refuse_sent_for_missing(store: Store, thread_id: str) -> None:
    """A form of ``thread_id`` sent from the browser after the thread was deleted: refused, saying why.

    The page draws the thread as not there, so no form is drawn for it; one still in the browser, sent,
    gets the answer every operation gives (:func:`agents.deletion.check_head`): no such thread, or one that
    changed since the form was drawn. Nothing is done, even for a thread there again (the page showed none).
    """
    for form in TYPED_FORMS:
        if not st.session_state.get(submit_key(form, thread_id)):
            continue

        def refuse(expected: str | None) -> str:
            check_head(store, thread_id, expected)
            raise ThreadNotFoundError(thread_id)  # there again, at that head, but drawn by this run as not there

        act(st.session_state.get(_armed_key(form, thread_id), NOT_DRAWN), refuse)


#: What a page passes to :func:`sidebar_forms` when it draws no head of its own: the sidebar reads one.
READ_HERE = "read here"


def sidebar_forms(store: Store, settings: Settings, thread_id: str | None, page_head: str | None = READ_HERE) -> None:
    """Draws the three forms in the sidebar for one thread, naming thread and checkpoint.

    ``page_head`` is the head the page drew the thread at (``None``: it drew the thread as not
    existing; :data:`READ_HERE`: the page shows no head, the sidebar reads one). The forms act on it,
    not on a head read now: another tab's change during this run (between the page's read and this
    one) is then refused as stale, never taken for what the user saw beside the forms.
    """
    st.session_state.pop(ACTED_KEY, None)  # the page above had its one run to see its own action
    changed_here = thread_id is not None and st.session_state.pop(CHANGED_HERE_KEY, None) == thread_id
    with st.sidebar:
        st.subheader(t("forms.header"))
        show_flash()
        if not thread_id:
            st.caption(t("forms.no_thread"))
            return
        current = readmodel.head_checkpoint_id(store, thread_id)
        agent = readmodel.thread_agent(store, thread_id)
        if current is None or agent is None or page_head is None:  # as the page showed it: not there
            st.caption(escape_markdown(t("forms.thread_missing", thread=thread_id)))
            refuse_sent_for_missing(store, thread_id)
            return
        head = current if page_head == READ_HERE else page_head
        st.caption(escape_markdown(t("forms.acting_on", thread=thread_id, checkpoint=short_id(head))))
        spec = get_agent(agent)

        def armed(form: str) -> tuple[str | None, str | None]:
            """(the head a submit is checked against, why it is refused: drawn before the thread moved on)."""
            expected, drawn = armed_head(form, thread_id, head, changed_here=changed_here)
            return expected, drawn_before(drawn, head)

        # A form the session's role cannot use is not drawn, and why is said (the operation checks it too).
        cannot_answer = auth.why_not(ANSWER)
        if cannot_answer:
            st.caption(t("auth.cannot_act", reason=cannot_answer))
        else:
            status = lifecycle.thread_status(store, thread_id)
            question = status.payload if status is not None and status.status == "waiting" else None
            waiting: tuple[tuple[str, Any], ...] = ()
            if question is not None:  # every question waiting, each with its interrupt id
                snapshot = runs.thread_snapshot(store, settings, thread_id)[1]
                waiting = tuple((str(i.id), i.value) for i in snapshot.interrupts)
            expected, notice = armed("resume")
            idle = status_text(status) if status is not None and status.status != "waiting" else None
            resume_form(store, settings, spec, thread_id, expected, question, waiting, notice, idle)
        if not auth.why_not(CONTINUE):  # a button: nothing typed is kept, it acts on the head this run shows
            continue_button(store, settings, thread_id, drawn_head("continue", thread_id, head))
        if not auth.why_not(UPDATE_STATE):
            update_form(store, settings, spec, thread_id, *armed("update"))
        if not auth.why_not(DELETE_THREAD):
            delete_form(store, thread_id, *armed("delete"))
        if auth.why_not(UPDATE_STATE) or auth.why_not(DELETE_THREAD):
            st.caption(t("auth.admin_only"))
