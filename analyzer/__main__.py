"""`python -m analyzer` runs the tsumolab command line."""

from analyzer.cli import main

main()
