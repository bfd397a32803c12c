"""The evidence assistant: a staged workflow from a question to an answer whose every fact is bound to a
call's rows (docs/assistant.md). ``Assistant.ask`` is the entry point."""
