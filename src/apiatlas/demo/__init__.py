"""The `apiatlas demo` walkthrough: embedded PostgreSQL, sample bank, compile, a real MCP client."""
