"""apiatlas: compile huge API surfaces into a snapshot an LLM agent navigates and calls safely over MCP."""

__version__ = "0.1.0"
