"""Build, serve and test Taberna.

    python build.py                 build the static site into dist/
    python build.py serve [--port N] [--host H]
                                    build, then serve dist/ on http://127.0.0.1:8000
    python build.py test [pytest args]
                                    install what the tests need, build, run every test
    python build.py new-game <id>   write a new game's package to start from

Why a single script with the standard library only: a fresh machine needs nothing but
Python with pip (to fetch the worker's pinned wheels and the build tools: the wheel's build
backend, the icons' SVG renderer), npm (to fetch the pinned runtime and the relay
transport's bundler from the registry) and, for the tests, the packages this script
installs itself. The steps are in ``buildtools/``.
"""

import argparse
import sys

from buildtools.assemble import build
from buildtools.serve import serve
from buildtools.testenv import install_debian_tools, run_pytest, test_python


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Build, serve and test Taberna.")
    commands = parser.add_subparsers(dest="command", metavar="command")
    commands.add_parser("build", help="build the static site into dist/ (the default)")
    serving = commands.add_parser("serve", help="build, then serve dist/")
    serving.add_argument("--port", type=int, default=8000)
    serving.add_argument("--host", default="127.0.0.1")
    commands.add_parser("test", help="install what the tests need, build, run pytest with the arguments that follow")
    commands.add_parser("new-game", help="write a new game's package to start from").add_argument("id")
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "new-game":
        from buildtools import new_game  # only this command needs it

        return new_game.main(args.id)
    if args.command == "test":
        python = test_python()
        install_debian_tools()
        build()
        return run_pytest(python, rest)
    build()
    if args.command == "serve":
        serve(args.host, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
