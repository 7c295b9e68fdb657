#!/bin/bash
# doc/environment.md's counter table is what lib/core/gen_counters_doc.py
# makes of the one table of counters (lib/core/counters.def).
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
top=${RP_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! ${PYTHON:-python3} "$top/lib/core/gen_counters_doc.py" "$top/lib/core/counters.def" >"$tmp/want"; then
    echo "FAIL: gen_counters_doc.py failed"
    exit 1
fi
sed -n '/<!-- counters:begin/,/<!-- counters:end/p' "$top/doc/environment.md" | sed '1d;$d' >"$tmp/have"
if [ ! -s "$tmp/have" ]; then
    echo "FAIL: doc/environment.md has no counters:begin/end block"
    exit 1
fi
if ! diff -u "$tmp/have" "$tmp/want"; then
    echo "FAIL: doc/environment.md's counter table is stale; regenerate it with"
    echo "      python3 lib/core/gen_counters_doc.py lib/core/counters.def"
    exit 1
fi
echo "ok: doc/environment.md lists the $(grep -c '^| `' "$tmp/want") counters of lib/core/counters.def"
