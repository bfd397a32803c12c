"""Playbooks: procedural knowledge as Markdown files with front matter, compiled next to any source."""

from apiatlas.sources.playbooks.loader import check_playbooks, load_playbooks

__all__ = ["check_playbooks", "load_playbooks"]
