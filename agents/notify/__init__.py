"""Notifications: events of waiting, stuck, overdue, escalated, decided and deleted threads, sent at least once.

:mod:`~agents.notify.scan` finds the events (what each keeps of a wait: :mod:`~agents.notify.facts`) and
records each once in the outbox table (:mod:`~agents.notify.outbox`); :mod:`~agents.notify.deliverer` sends
them, in the order they happened, on the channels of :class:`agents.settings_notify.NotifySettings`
(:mod:`~agents.notify.channels`) with the text of :mod:`~agents.notify.messages`.
"""

#: Seconds between two scans of a watching deliverer (an overdue event goes out within a minute).
WATCH_INTERVAL_SECONDS = 15.0
