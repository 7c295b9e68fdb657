#!/bin/bash
# The include graph of lib/ and tools/ follows the layering that
# doc/design.md ("Folders") describes: arrows only point down.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
top=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
exec "${PYTHON:-python3}" "$top/tests/conform/check_layers.py" "$top"
