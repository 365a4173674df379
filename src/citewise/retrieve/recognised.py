"""Which of the documents a question names a rule pack's retrieval rule recognises
(`rules.retrieval.InsideRule.recognises`): each document's opening passages are read when
first needed and the verdict kept per stored version, so a replaced document is read again."""

from __future__ import annotations

from citewise.rules.retrieval import InsideRule
from citewise.store.base import Store
from citewise.types import SearchFilter

# the opening passages read: past a filing's cover page to its first statements of figures
OPENING_CHUNKS = 8
KEPT = 4096  # verdicts kept (cleared when full)


class Recognition:
    def __init__(self, store: Store, opening_chunks: int = OPENING_CHUNKS) -> None:
        self._store = store
        self._chunks = opening_chunks
        self._verdicts: dict[tuple[int, str], bool] = {}

    def recognises(self, rule: InsideRule, flt: SearchFilter) -> bool:
        """Whether `rule` recognises every document `flt` singles out (none: False)."""
        return bool(flt.sources) and all(self._one(rule, flt.collection, s) for s in flt.sources)

    def _one(self, rule: InsideRule, collection: str, source: str) -> bool:
        doc = self._store.find_document(collection, source)
        if doc is None:
            return False
        key = (doc.doc_id, rule.switch)
        verdict = self._verdicts.get(key)
        if verdict is None:
            rows = self._store.document_texts(doc.doc_id, limit=self._chunks)
            verdict = rule.recognises("\n".join(f"{section}\n{text}" for _, text, section in rows))
            if len(self._verdicts) >= KEPT:
                self._verdicts.clear()
            self._verdicts[key] = verdict
        return verdict
