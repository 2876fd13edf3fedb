"""A webhook's ``text`` shows what a person typed as typed: ``&``, ``<`` and ``>`` reach a real receiver as the
entities Slack's message formatting reads as those characters, so a customer named ``<!channel>`` mentions no
one and ``<http://x|label>`` is no disguised link. The body's other fields stay as they are.
"""

from __future__ import annotations

import html

import pytest

from agents.notify.deliverer import Deliverer
from tests.agents.notify.conftest import notifying
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

CUSTOMER = "<!channel> 홍길동 & <http://evil.example|Open the case> <@U024BE7LH>"


def test_what_slack_reads_as_markup_reaches_the_webhook_escaped(store, settings, receiver):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "S1", customer=CUSTOMER)

    Deliverer(store, settings).run_once()
    [item] = receiver.wait_for(1)
    text = item.body["text"]
    assert "<" not in text and ">" not in text
    escaped = "&lt;!channel&gt; 홍길동 &amp; &lt;http://evil.example|Open the case&gt; &lt;@U024BE7LH&gt;"
    assert f"Refund agent case S1 ({escaped}, 500,000 KRW)" in text
    assert html.unescape(text).startswith(f"Waiting for a decision: Refund agent case S1 ({CUSTOMER}, 500,000 KRW)")
    assert item.body["customer"] == CUSTOMER  # the data field as it was typed
