"""NESTFUL's executable spec format (IBM, Apache-2.0): a JSON list of RapidAPI endpoints, each with
``name``, ``description``, ``method``, ``endpoint``, ``host``, ``query_parameters`` /
``path_parameters`` and ``output_parameters``."""
