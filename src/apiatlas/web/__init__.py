"""Web pages for people over a snapshot: catalog and graph, search, plan, reports (read-only)."""
