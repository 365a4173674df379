"""`python -m citewise.rules`: the profiles and what each rule family changes, as Markdown."""

from __future__ import annotations

from citewise.rules import table

print(table(), end="")
