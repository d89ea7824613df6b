"""``python -m experiments``: one parser, one lazy command registry, a thin module per verb.

``parser`` declares every verb's arguments; ``main`` parses, imports only the chosen verb's module
and maps errors to exit codes. Each verb module has ``run(args, console) -> int`` and calls the
concept packages below it.
"""
