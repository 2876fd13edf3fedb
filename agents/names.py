"""When two names are one name: compared as they look, not as they are encoded.

A name typed by a person (an approver, a requester written another way) is compared with another
by :func:`name_keys`: compatibility forms folded (NFKC: fullwidth, mathematical and circled
letters), invisible format and control characters dropped, then the Unicode TR39 confusable
skeleton (UTS #39, section 4), taken by ``disarm`` (a maintained implementation of TR39's data,
pinned in requirements.txt) rather than by a list kept here: a Cyrillic ``а``, a Greek ``ο``, a
small-capital ``ᴜ``, a non-breaking hyphen read as what they look like. Case is folded after the
skeleton, separators (spaces, dashes, connectors, punctuation) are folded away, and accents count
for nothing, so ``update‑state``, ``Update State`` and ``updatestate`` are one name, as are
``Kim Minji``, ``KIM\u00a0MINJI`` and ``K\u0456m M\u0456nj\u0456``.

Two names sharing any key are one name. For the rules that use it (the agent's reserved approver
names, four eyes) a false match refuses a decision that another name would make, and a missed one
would let a person act as someone they are not; so every reading is a key.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from anyascii import anyascii
from disarm import skeleton_key


def _letters_and_digits(text: str) -> str:
    """``text`` with its separators folded away: only letters, marks and digits are left."""
    return "".join(char for char in text if unicodedata.category(char)[0] in "LMN")


@lru_cache(maxsize=4096)
def name_keys(name: str) -> frozenset[str]:
    """What tells a name apart from others: two names that share a key are one name.

    The name as a reader sees it (compatibility forms folded by NFKC, invisible format and control
    characters dropped), then its Unicode TR39 confusable skeleton (``disarm.skeleton_key``, digits
    folded as TR39 folds them: ``0`` reads ``O``, ``1`` reads ``l``) as written, in lower and in upper
    case, each also transliterated to ASCII (``anyascii``), every separator folded away; and the same
    again with every nonspacing mark dropped (an accent, or a combining letter above one, as in
    ``tͣ``). The case variants are needed because a skeleton is taken before case is ignored:
    ``AUTOMAT1C`` reads as ``AUTOMATIC``, not as ``automatic``. A name of no letter or digit has no key.
    """
    seen = "".join(c for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c) not in ("Cf", "Cc"))
    unmarked = _without_marks(seen)
    keys: set[str] = set()
    for variant in (seen, seen.lower(), seen.upper(), unmarked, unmarked.lower(), unmarked.upper()):
        skeleton = skeleton_key(variant, digit_policy="tr39")
        for written in (skeleton, anyascii(skeleton).casefold()):
            if key := _letters_and_digits(written):
                keys.add(key)
    return frozenset(keys)


@lru_cache(maxsize=1 << 16)
def id_key(text: str) -> str:
    """What tells an id apart (a refund's case id, an item's id): two ids with one key are one id, however typed.

    The id as a reader sees it (NFKC: a fullwidth ``Ｃ1`` is ``C1``; invisible format and control characters
    dropped), in any case, then its TR39 confusable skeleton with digits kept as digits: a Cyrillic ``С1`` or
    a Greek ``Α`` reads as the Latin letter, but ``C1`` is not ``Cl``. Unlike :func:`name_keys`, separators,
    accents and scripts are kept, as ids use them: ``C-1`` and ``C1``, ``2024-1-11`` and ``2024-11-1``, ``李``
    and ``里`` are two ids. Cached: a case's start compares every case id the database holds.
    """
    seen = "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) not in ("Cf", "Cc"))
    return skeleton_key(seen.casefold())


def _without_marks(text: str) -> str:
    """``text`` without its nonspacing and enclosing marks (an accent, a combining small ``a`` above a letter)."""
    bare = (char for char in unicodedata.normalize("NFD", text) if unicodedata.category(char) not in ("Mn", "Me"))
    return unicodedata.normalize("NFC", "".join(bare))


def same_name(first: object, second: object) -> bool:
    """Whether two names are one name (:func:`name_keys`); anything but text names no one."""
    if not isinstance(first, str) or not isinstance(second, str):
        return False
    return not name_keys(first).isdisjoint(name_keys(second))


#: What the agents record themselves under, never a person: ``automatic`` (a refund the rules settled
#: with no one asked) and ``update_state`` (a change made through ``update_state`` that named no one).
AUTOMATIC = "automatic"
UPDATE_STATE = "update_state"
RESERVED_NAMES = (AUTOMATIC, UPDATE_STATE)


def is_reserved_name(name: object) -> bool:
    """Whether a name reads as one the agents write themselves (:data:`RESERVED_NAMES`, by :func:`same_name`).

    The one check of every name a person may be recorded under: a typed approver, and
    ``HITL_LOCAL_APPROVER``, which stands for a typed approver.
    """
    return any(same_name(name, reserved) for reserved in RESERVED_NAMES)
