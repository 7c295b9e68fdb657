#!/bin/bash
# The tree says what is true now; its history is git's.  Fails on any
# "session N" (a development session) in a tracked file: docs, code
# comments, tests, scripts.  MPI-4's sessions (MPI_Session_init, "MPI
# sessions") never have a number after the word, so they pass.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
top=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
pattern='[Ss]ession[s]? [0-9]'
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # the tracked files (build and install folders inside the checkout are not)
    hits=$(cd "$top" && git ls-files -z | xargs -0 grep -nIE "$pattern" -- 2>/dev/null)
else
    # a release tarball: every file, less what configure and make write
    hits=$(grep -rnIE "$pattern" --exclude-dir='_*' --exclude-dir=autom4te.cache \
               --exclude=Makefile.in --exclude=configure --exclude='config.*' "$top")
fi
if [ -n "$hits" ]; then
    echo "FAIL: development history in the tree (say what holds now; git log keeps the history):"
    echo "$hits"
    exit 1
fi
echo "ok: no \"session N\" in the tree"
