"""Serving many users safely: authentication, roles, limits, audit, metrics, secrets."""
