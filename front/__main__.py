"""`python -m tsumolab` runs the tsumolab command line."""

from tsumolab.cli import main

main()
