"""`python -m citewise.cli`."""

from citewise.cli import main

main()
