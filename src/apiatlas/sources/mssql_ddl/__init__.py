"""SQL Server DDL projects: a folder of .sql files (CREATE PROCEDURE/FUNCTION/TYPE, extended properties)."""
