"""A fuzz campaign against a live server: schema-generated and hostile calls over stdio and HTTP."""
