CREATE TYPE [Shop].[ItemList] AS TABLE (
    [ItemID] INT NOT NULL,
    [Quantity] DECIMAL (18, 2) NULL
);
GO
CREATE PROCEDURE [Shop].[FindItems]
    @Name nvarchar(100),            -- required: no default
    @MaxRows int = 50,
    @Total int OUTPUT
AS
BEGIN
    -- INSERT Shop.Items (Name) VALUES ('in a comment') is not a write
    /* neither is DELETE Shop.Items in a block comment */
    DECLARE @note nvarchar(100) = N'UPDATE Shop.Items SET Name = ''x''';
    DECLARE @found TABLE (ItemID int);
    INSERT @found (ItemID) SELECT ItemID FROM Shop.Items WHERE Name LIKE @Name;
    SELECT @Total = COUNT(*) FROM @found;
    SELECT TOP (@MaxRows) i.ItemID, i.Name AS ItemName, Price = i.UnitPrice
    FROM Shop.Items AS i
    WHERE i.Name LIKE @Name;
END;
GO
CREATE PROCEDURE Shop.AddItems
    @Items Shop.ItemList READONLY,
    @UserID int
AS
BEGIN
    INSERT Shop.Items (ItemID, Quantity) SELECT ItemID, Quantity FROM @Items;
END;
GO
CREATE PROCEDURE Shop.RunAnything @sql nvarchar(max)
AS
    EXEC sp_executesql @sql;
GO
CREATE PROCEDURE Shop.CallsAdd
AS
    EXEC Shop.AddItems @UserID = 1;
GO
EXEC sys.sp_addextendedproperty @name = N'MS_Description', @value = N'Shop catalogue', @level0type = N'SCHEMA', @level0name = N'Shop';
GO
EXEC sys.sp_addextendedproperty N'MS_Description', N'Find items by name.', N'SCHEMA', N'Shop', N'PROCEDURE', N'FindItems';
GO
EXEC sys.sp_addextendedproperty @name = N'MS_Description', @value = N'Part of the item name', @level0type = N'SCHEMA', @level0name = N'Shop', @level1type = N'PROCEDURE', @level1name = N'FindItems', @level2type = N'PARAMETER', @level2name = N'@Name';
GO
EXEC sys.sp_addextendedproperty @name = N'MS_Description', @value = N'Item to add', @level0type = N'SCHEMA', @level0name = N'Shop', @level1type = N'TYPE', @level1name = N'ItemList', @level2type = N'COLUMN', @level2name = N'ItemID';
GO
EXEC sys.sp_addextendedproperty @name = N'MS_Description', @value = N'Price of one unit', @level0type = N'SCHEMA', @level0name = N'Shop', @level1type = N'TABLE', @level1name = N'Items', @level2type = N'COLUMN', @level2name = N'UnitPrice';
GO
