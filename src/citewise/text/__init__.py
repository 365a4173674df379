"""Text helpers with no knowledge of the stages above them (pure): sentences and words,
headings and titles, code-like identifiers, release-notes pages, URLs."""
