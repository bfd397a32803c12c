"""Web pages for people over a snapshot: the catalog and its graph, search, plan and the reports (read-only)."""
