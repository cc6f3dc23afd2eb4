"""The `tsumolab` subcommands, one module each; each adds itself to tsumolab.cli.cli on import."""
