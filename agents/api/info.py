"""``GET /info`` in the shape LangGraph's server answers it, and the CORS policy browsers are given.

Agent Chat UI asks ``/info`` to tell whether a server is there; LangGraph Studio reads its flags. The
keys are the reference server's (``version``, ``langgraph_py_version``, ``flags``, ``host``), the
values this server's own: its API version, the langgraph it runs, assistants (one per agent, read
only), no crons, no LangSmith (nothing here reaches it), a self-hosted host with no LangSmith project.

Browser clients (Agent Inbox, Agent Chat UI) call the server from another origin. Only the origins
``HITL_API_CORS_ORIGINS`` names may (none by default; ``agents.settings`` refuses ``*`` while tokens
are required), with the reference server's policy otherwise: any method and header, its exposed
headers, and Chrome's private-network preflight answered, since a page on the web calls a server on
this machine.
"""

from __future__ import annotations

from typing import Any

import langgraph.version
from fastapi import APIRouter, FastAPI
from starlette.middleware.cors import CORSMiddleware

#: This server's API version (the OpenAPI document's and ``/info``'s).
API_VERSION = "1.0"
#: The answer headers a browser page may read: the reference server's, and this server's request id.
EXPOSED_HEADERS = ("content-location", "x-pagination-total", "x-pagination-next", "x-request-id")

router = APIRouter(tags=["health"])


@router.get("/info")
def info() -> dict[str, Any]:
    """What this server is and which optional parts of LangGraph's API it has."""
    return {
        "version": API_VERSION,
        "langgraph_py_version": langgraph.version.__version__,
        "flags": {
            "assistants": True,
            "crons": False,
            "langsmith": False,
            "langsmith_tracing_replicas": False,
            "langsmith_tracing_session_on_runs": False,
        },
        "host": {
            "kind": "self-hosted",
            "project_id": None,
            "host_revision_id": None,
            "revision_id": None,
            "tenant_id": None,
        },
    }


def allow_origins(app: FastAPI, origins: tuple[str, ...]) -> None:
    """Lets pages of ``origins`` call the app from a browser (nothing is added for none).

    Added last, so it is the outermost middleware: a preflight (which never carries a token) is
    answered before the token check, and a refusal of the guard reaches the page with its headers.
    """
    if not origins:
        return
    app.add_middleware(
        CORSMiddleware,
        allow_origins=list(origins),
        allow_credentials=origins != ("*",),
        allow_methods=["*"],
        allow_headers=["*"],
        allow_private_network=True,
        expose_headers=list(EXPOSED_HEADERS),
    )
