# lint-args: --os windows --torch 2.5 --cuda yes
# A package linted as a whole: module code that calls into another of its files which
# starts workers is reported at the call (loop.py's own module code starts nothing).
