"""The compile report: a Markdown page (with Mermaid diagrams) rendered from a snapshot."""

from apiatlas.report.markdown import render_report

__all__ = ["render_report"]
