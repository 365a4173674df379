"""The MCP server: citewise's search, cited answers and documents as tools and resources for
MCP clients (Claude Desktop, IDEs, agent frameworks). `citewise mcp` serves it over stdio;
`citewise serve` mounts it at `/mcp` (Streamable HTTP) behind the HTTP API's auth."""

from citewise.mcp.server import Caller, build_server

__all__ = ["Caller", "build_server"]
