"""What every layer above uses, and nothing of theirs.

Modules: ``errors`` (the one input-error type: a message naming what was wrong, exit 2), ``paths``
(the project root), ``safe_text`` (escaping per output medium: file names, terminal, Rich, Markdown),
``shapes`` (shape checks for data read from outside), ``owned_files`` (output files and folders this
tool may overwrite, and the index that marks them).
"""
