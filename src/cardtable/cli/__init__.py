"""The ``cardtable`` command line: list games and options, play in a terminal, replay records.

Each subcommand is a module of this package with ``add_parser(subparsers)`` and ``run(args) -> int``;
:mod:`cardtable.cli.main` lists them. The CLI is a thin layer over the protocol: it shows a seat
nothing but ``state.view(seat)``, that seat's legal actions and its redacted events.
"""
