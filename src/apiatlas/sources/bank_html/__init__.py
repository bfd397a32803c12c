"""sources/bank_html."""
