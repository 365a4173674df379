"""The store's SQL written once for both databases, over `connection.WriteConn`."""
