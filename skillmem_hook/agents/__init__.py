"""Agents reach the skills: the MCP server and the Claude Code route hook, thin over search/."""
