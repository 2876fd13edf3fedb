"""``python -m tests.browser.fixed_clock run streamlit_app.py ...``: Streamlit's command line with the pages'
clock, ``agents.ages.utc_now``, fixed at the moment ``FIXED_CLOCK_AT`` gives (ISO 8601), as the page tests
replace it in theirs."""

from __future__ import annotations

import datetime as dt
import os
import sys

from agents import ages

if __name__ == "__main__":
    moment = dt.datetime.fromisoformat(os.environ["FIXED_CLOCK_AT"])
    ages.utc_now = lambda: moment
    from streamlit.web.cli import main

    sys.exit(main())
