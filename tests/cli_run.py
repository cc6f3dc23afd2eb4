"""Run the `tsumolab` command line inside a test and return (exit code, stdout, stderr)."""

from tsumolab.cli import main


def run_cli(args, capsys):
    try:
        main(args)
    except SystemExit as exc:
        out = capsys.readouterr()
        return exc.code, out.out, out.err
    raise AssertionError("main() did not exit")
