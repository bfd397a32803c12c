"""The MCP server: navigation, execution and evidence tools over one snapshot (see app.build_server)."""
