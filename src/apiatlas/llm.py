"""A chat model on an OpenAI-compatible server inside the perimeter (vLLM, llama.cpp, Ollama) that answers
in JSON a pydantic model validates: the prompt first (servers cache the shared prefix), the JSON Schema
asked for strictly, the context last; an invalid answer is sent back with what is wrong, at most twice.

Used by the assistant's optional roles (``assistant/llm.py``) and the SDK cards' enrichment
(``code/enrichment.py``); ``--llm openai:MODEL@BASE_URL`` names the model, the key comes from
``$APIATLAS_LLM_KEY`` or the file ``$APIATLAS_LLM_KEY_FILE`` names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from apiatlas.errors import ConfigError
from apiatlas.security.secrets import read_secret

KEY_ENV = "APIATLAS_LLM_KEY"  # or APIATLAS_LLM_KEY_FILE
MAX_REPAIRS = 2
_SPEC = re.compile(r"^openai:(?P<model>[^@]+)@(?P<url>https?://\S+)$")
M = TypeVar("M", bound=BaseModel)


class ModelFailed(Exception):
    """The model's output stayed invalid after the repairs, or the server failed."""


class ChatModel:
    """One model on one server; every call bounded by a timeout."""

    def __init__(self, model: str, base_url: str, key: str | None, timeout_s: float = 20.0) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout_s = timeout_s

    @classmethod
    def parse_spec(cls, spec: str) -> tuple[str, str]:
        """``openai:MODEL@BASE_URL`` as (model, base URL); anything else is a ``ConfigError``."""
        match = _SPEC.match(spec.strip())
        if match is None:
            raise ConfigError(
                f"--llm takes openai:MODEL@BASE_URL (an OpenAI-compatible server), not {spec!r}"
            )
        return match["model"], match["url"]

    def _chat(self, messages: list[dict[str, str]], schema: type[BaseModel]) -> str:
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": schema.__name__,
                    "strict": True,
                    "schema": schema.model_json_schema(),
                },
            },
        }
        try:
            response = httpx.post(
                f"{self.base_url}/chat/completions", json=body, headers=headers, timeout=self.timeout_s
            )
            response.raise_for_status()
            return str(response.json()["choices"][0]["message"]["content"])
        except httpx.TimeoutException as exc:
            raise ModelFailed(f"timeout after {self.timeout_s:g} s") from exc
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise ModelFailed(f"model server: {exc}") from exc

    def ask_json(
        self,
        prompt: str,
        context: dict[str, Any],
        schema: type[M],
        check: Callable[[M], str] | None = None,
    ) -> M:
        """The model's answer to ``context`` under ``prompt``, validated by ``schema`` and ``check`` (a
        problem in words, "" when none), repaired at most twice; ``ModelFailed`` otherwise."""
        shape = schema.model_json_schema()
        messages = [
            {"role": "system", "content": prompt},  # static first: servers cache the prefix
            {"role": "system", "content": "Answer with JSON only, matching: " + json.dumps(shape)},
            {"role": "user", "content": json.dumps(context, ensure_ascii=False, default=str)},  # facts last
        ]  # fmt: skip
        problem = ""
        for _attempt in range(MAX_REPAIRS + 1):
            content = self._chat(messages, schema)
            try:
                parsed = schema.model_validate_json(content)
                problem = check(parsed) if check is not None else ""
                if not problem:
                    return parsed
            except ValidationError as exc:
                problem = str(exc).splitlines()[0] + ": " + "; ".join(e["msg"] for e in exc.errors()[:3])
            messages += [
                {"role": "assistant", "content": content},
                {
                    "role": "user",
                    "content": f"That output is invalid: {problem}. Return corrected JSON only.",
                },
            ]
        raise ModelFailed(f"still invalid after {MAX_REPAIRS} repairs: {problem}")


def model_from_spec(spec: str, timeout_s: float = 20.0) -> ChatModel:
    """The model ``--llm openai:MODEL@BASE_URL`` names, with the key from the environment."""
    model, url = ChatModel.parse_spec(spec)
    return ChatModel(model, url, read_secret(KEY_ENV), timeout_s)
