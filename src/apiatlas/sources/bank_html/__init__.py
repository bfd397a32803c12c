"""The bank HTML documentation source (docs/formats/bank-html.md): windows-1251 pages to a Catalog."""

from apiatlas.sources.bank_html.loader import is_bank_docs, load_bank_docs

__all__ = ["is_bank_docs", "load_bank_docs"]
