"""OpenAPI 3.0/3.1 and Swagger 2.0 specs (JSON or YAML, one file or many) as a catalog source."""
