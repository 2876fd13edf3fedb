"""Settings in one typed place.

Every setting is read, in order of precedence, from an explicit override (the
CLI's ``--db``), the process environment, and ``.streamlit/secrets.toml``.
Secrets are looked up the same way and never printed: :class:`Settings`
keeps them out of its ``repr``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from agents.errors import UserError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB_PATH = PROJECT_ROOT / "data" / "checkpoints.sqlite"
SECRETS_PATH = PROJECT_ROOT / ".streamlit" / "secrets.toml"

#: Names whose values are secrets: looked up like any setting, never shown.
SECRET_NAMES = ("GOOGLE_API_KEY", "GEMINI_API_KEY", "TAVILY_API_KEY")


def read_secrets_file(path: Path = SECRETS_PATH) -> dict[str, str]:
    """Reads the flat top-level string entries of a Streamlit secrets file.

    A missing file is an empty mapping. A file that does not parse is an error
    the operator must fix, so it is raised, naming the file (never its content).
    """
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path} is not valid TOML: {error}") from None
    return {key: str(value) for key, value in data.items() if isinstance(value, str | int | float)}


@dataclass(frozen=True)
class Settings:
    """The resolved settings of one process.

    Attributes:
        db: The database location (a file path; see :func:`resolve_db`).
        values: Every other setting by name (environment over secrets file).
    """

    db: str
    values: Mapping[str, str] = field(default_factory=dict, repr=False)

    def get(self, name: str, default: str | None = None) -> str | None:
        """Returns a setting or ``default`` when it is unset or empty."""
        value = self.values.get(name)
        return value if value not in (None, "") else default

    def get_float(self, name: str, default: float) -> float:
        """Returns a numeric setting; a malformed value is a loud error."""
        raw = self.get(name)
        if raw is None:
            return default
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"setting {name} must be a number, got {raw!r}") from None


def load_settings(
    db_override: str | None = None,
    environ: Mapping[str, str] | None = None,
    secrets: Mapping[str, str] | None = None,
) -> Settings:
    """Resolves the settings: ``--db`` over ``HITL_DB`` over the secrets file.

    Args:
        db_override: The CLI's ``--db`` value, if given.
        environ: The environment (defaults to ``os.environ``).
        secrets: The secrets file entries (defaults to reading the file).
    """
    environ = os.environ if environ is None else environ
    secrets = read_secrets_file() if secrets is None else secrets
    merged: dict[str, str] = {**secrets, **{k: v for k, v in environ.items() if v != ""}}
    db = db_override or merged.get("HITL_DB") or str(DEFAULT_DB_PATH)
    return Settings(db=db, values=merged)
