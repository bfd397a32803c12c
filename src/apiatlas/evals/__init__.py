"""Retrieval evaluation: dataset loaders into catalogs, metrics, and the eval run itself."""
