"""Chain planning: from a request (and known values) to ranked, ordered calls that answer it."""
