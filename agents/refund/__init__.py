"""The refund agent: approvers approve, reject or edit amounts; each payout happens exactly once."""
