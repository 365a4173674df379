"""Small documents for the store tests, chunked as the ingest pipeline would chunk them
(from the store contract kit, which ships them)."""

from citewise.testing.store_contract import document_of, new_document

__all__ = ["document_of", "new_document"]
