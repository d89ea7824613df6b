import sys

from experiments.cli.main import EXIT_BROKEN_PIPE, main, quiet_stdout

code = main()
try:
    sys.stdout.flush()  # what is still buffered goes now, where a closed pipe can be caught
except BrokenPipeError:
    quiet_stdout()
    code = EXIT_BROKEN_PIPE
sys.exit(code)
