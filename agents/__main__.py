"""``python -m agents``: the dashboard's operations without a browser."""

import sys

from agents.cli import main

sys.exit(main())
