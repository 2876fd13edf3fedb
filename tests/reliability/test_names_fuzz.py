"""Fuzzing how names are compared: look-alike, width, case and separator variants are one name.

Hypothesis writes the agent's own approver names (``automatic``, ``update_state``) and a requester's
names (email, display name, token label) letter by letter in another form: upper case, fullwidth,
one of Unicode's mathematical alphabets, circled, small capitals, a look-alike of another script,
with accents, invisible format characters and separators (any space, dash or connector, or ASCII
punctuation) put anywhere. Every variant must be refused where the rule is decided: the refund's
``check_answer`` (which every path's answer goes through), ``recorded_approver_problem`` (the nodes'
check of a decision found in the state) and ``agents.identity.denial`` (four eyes); and, through
``runs``, on a real waiting case, which no refusal may change.
"""

from __future__ import annotations

import string
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import readmodel, runs
from agents.errors import InputError, PermissionDenied
from agents.identity import LOCAL_OPERATOR, denial, token_hash
from agents.names import name_keys
from agents.refund import ledger
from agents.refund.permissions import APPROVE_REFUND, FOUR_EYES, is_requester
from agents.refund.rules import RESERVED_APPROVERS, check_answer, is_reserved_approver, recorded_approver_problem
from agents.roles_file import parse_roles

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STYLES = (
    "BOLD",
    "ITALIC",
    "BOLD ITALIC",
    "SCRIPT",
    "BOLD SCRIPT",
    "FRAKTUR",
    "DOUBLE-STRUCK",
    "BOLD FRAKTUR",
    "SANS-SERIF",
    "SANS-SERIF BOLD",
    "SANS-SERIF ITALIC",
    "SANS-SERIF BOLD ITALIC",
    "MONOSPACE",
)
#: Letters of other scripts that look like Latin ones (Unicode names, so the test reads what it uses).
OTHER_SCRIPTS = {
    "a": ("CYRILLIC SMALL LETTER A", "LATIN SMALL LETTER ALPHA", "LATIN LETTER SMALL CAPITAL A"),
    "c": ("CYRILLIC SMALL LETTER ES", "LATIN LETTER SMALL CAPITAL C"),
    "e": ("CYRILLIC SMALL LETTER IE",),
    "i": ("CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I", "LATIN SMALL LETTER DOTLESS I"),
    "j": ("CYRILLIC SMALL LETTER JE",),
    "m": ("LATIN LETTER SMALL CAPITAL M",),
    "n": ("LATIN LETTER SMALL CAPITAL N",),
    "o": ("CYRILLIC SMALL LETTER O", "GREEK SMALL LETTER OMICRON", "LATIN LETTER SMALL CAPITAL O"),
    "p": ("CYRILLIC SMALL LETTER ER", "GREEK SMALL LETTER RHO"),
    "s": ("CYRILLIC SMALL LETTER DZE",),
    "t": ("LATIN LETTER SMALL CAPITAL T",),
    "u": ("LATIN LETTER SMALL CAPITAL U", "GREEK SMALL LETTER UPSILON"),
    "x": ("CYRILLIC SMALL LETTER HA",),
    "y": ("CYRILLIC SMALL LETTER U",),
}


def _named(name: str) -> list[str]:
    try:
        return [unicodedata.lookup(name)]
    except KeyError:  # Unicode has no such character (a few mathematical letters live elsewhere)
        return []


def _forms(char: str) -> list[str]:
    """``char`` and the ways to write it that read the same: case, width, styled, circled, another script."""
    if char not in string.ascii_letters:
        return [char]
    low, up = char.lower(), char.upper()
    forms = [char, up, low, chr(ord(low) - ord("a") + 0xFF41), chr(ord(up) - ord("A") + 0xFF21)]
    for style in STYLES:
        forms += _named(f"MATHEMATICAL {style} SMALL {up}") + _named(f"MATHEMATICAL {style} CAPITAL {up}")
    forms += _named(f"CIRCLED LATIN SMALL LETTER {up}")
    for name in OTHER_SCRIPTS.get(low, ()):
        forms += _named(name)
    return forms


SEPARATORS = st.one_of(st.characters(categories=("Zs", "Pd", "Pc")), st.sampled_from(".,;:/'\"!?*#~+=-_"))
INVISIBLE = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"])
ACCENT = st.characters(min_codepoint=0x0300, max_codepoint=0x036F)


@st.composite
def written_as(draw: st.DrawFn, name: str) -> str:
    """``name`` written letter by letter in other forms, with invisibles and separators anywhere."""
    out = []
    for char in name:
        if char in "_ .-@":  # a separator of the name itself: any separator, or none
            out.append(draw(st.one_of(st.just(""), SEPARATORS)) if char != "@" else char)
            continue
        out.append(draw(st.sampled_from(_forms(char))))
        extra = draw(st.sampled_from(["", "", "", "separator", "invisible", "accent"]))
        if extra == "separator":
            out.append(draw(SEPARATORS))
        elif extra == "invisible":
            out.append(draw(INVISIBLE))
        elif extra == "accent" and char.isalpha():
            out.append(draw(ACCENT))
    return "".join(out)


def reserved_variant() -> st.SearchStrategy[str]:
    return st.sampled_from(RESERVED_APPROVERS).flatmap(written_as)


REQUESTER = {
    "requested_by": "kim@example.com",
    "requested_by_name": "Kim Minji",
    "requested_by_names": ["kim@example.com", "Kim Minji", "kim-script"],
}


ROLES = parse_roles(
    f"""
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim Minji" }}
[tokens]
"kim-script" = {{ sha256 = "{token_hash("tok-fuzz-kim")}", email = "kim@example.com" }}
"""
)
KIM_BY_TOKEN = ROLES.identity_for_token("tok-fuzz-kim")


def requester_variant() -> st.SearchStrategy[str]:
    return st.sampled_from(REQUESTER["requested_by_names"]).flatmap(written_as)


@SETTINGS
@given(reserved_variant())
def test_every_variant_of_a_reserved_name_is_refused_where_the_rule_is_decided(variant: str) -> None:
    assert is_reserved_approver(variant), (variant, name_keys(variant))
    with pytest.raises(InputError) as refused:
        check_answer({"action": "approve", "approver": variant})
    assert refused.value.field == "approver"
    assert recorded_approver_problem({"decision": "reject", "approver": variant}, "reject")


@SETTINGS
@given(requester_variant())
def test_every_variant_of_the_requesters_names_is_the_requester(variant: str) -> None:
    assert is_requester(variant, *REQUESTER.values()), (variant, name_keys(variant))
    assert denial(LOCAL_OPERATOR, APPROVE_REFUND, approver=variant, **REQUESTER) == FOUR_EYES  # type: ignore[arg-type]
    state = {**REQUESTER, "decision": "approve", "approver": variant}
    assert "four eyes" in recorded_approver_problem(state, "approve") or is_reserved_approver(variant)


@SETTINGS
@given(st.sampled_from(["Lee Jisoo", "park@example.com", "Choi", "auto", "update", "state"]).flatmap(written_as))
def test_another_persons_name_written_any_way_is_neither_reserved_nor_the_requester(variant: str) -> None:
    assert not is_reserved_approver(variant), variant
    assert not is_requester(variant, *REQUESTER.values()), variant


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(variant=st.one_of(reserved_variant(), requester_variant()))
def test_a_waiting_case_refuses_every_variant_through_runs_and_stays_unchanged(store, settings, variant) -> None:
    """One case requested by Kim serves every example: a refusal changes nothing, which is checked too."""
    thread = "refund-FUZZ1"
    if readmodel.head_checkpoint_id(store, thread) is None:
        values = {"case_id": "FUZZ1", "customer": "c", "amount": 500_000, "reason": "r"}
        runs.start_run(store, settings, "refund", values, actor=KIM_BY_TOKEN)
    head = readmodel.head_checkpoint_id(store, thread)
    with pytest.raises((InputError, PermissionDenied)):
        runs.resume_thread(store, settings, thread, {"action": "approve", "approver": variant})
    with pytest.raises((InputError, PermissionDenied)):
        runs.update_thread(store, settings, thread, {"decision": "approve", "approver": variant})
    assert readmodel.head_checkpoint_id(store, thread) == head
    assert ledger.ledger_rows(store) == []
