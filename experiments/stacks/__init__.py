"""Stack files, read the way the Pulumi CLI hands them to the program.

Modules: ``stackfile`` (read, validate and plan a ``Pulumi.<stack>.yaml``), ``coexistence``
(stacks that would share workers), ``automation`` (the Automation API path, for users with the
CLI: the sweep's and the ``stack`` verbs' stacks, their outcome in one line), ``backend`` (a file
backend's lock files and checkpoint, read only).
"""
