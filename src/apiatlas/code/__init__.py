"""What build time and run time share about code surfaces (SDKs): documentation-ID keys and C# syntax.

The dotnet source (``sources/dotnet/``) builds entities with these; the code tools (``server/``) read
drafts and resolve keys with the same functions, without importing any source's code."""
