"""The store's SQL written once for both databases (`reads`, `writes`, `stream`, and `SqlStore`
over them), on a backend's `connection.ReadConn` and `connection.WriteConn`."""
