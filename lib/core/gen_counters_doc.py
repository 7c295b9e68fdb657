#!/usr/bin/env python3
"""gen_counters_doc.py COUNTERS.DEF - print the counter table of
doc/environment.md (between its "counters:begin" and "counters:end" marks)
from the one table of counters, lib/core/counters.def.

    python3 lib/core/gen_counters_doc.py lib/core/counters.def

tests/conform/test_counters_doc.sh fails when the doc and the table differ."""
import re
import sys

ROW = re.compile(r'RP_COUNTER\(\s*(\w+)\s*,\s*"([^"]*)"\s*,\s*(RP_CK_\w+)\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)', re.S)


def strings(s):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', s))


def rows(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = [(m.group(2), m.group(3), strings(m.group(4)), strings(m.group(5)))
           for m in ROW.finditer(text)]
    if not out:
        sys.exit("gen_counters_doc: no RP_COUNTER rows in %s" % path)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("| counter | warned | meaning | what helps |")
    print("|---|---|---|---|")
    for name, kind, meaning, remedy in rows(sys.argv[1]):
        warned = "yes" if kind == "RP_CK_LOSS" else ""
        print("| `%s` | %s | %s | %s |" % (name, warned, meaning.replace("|", "\\|"),
                                          remedy.replace("|", "\\|")))


if __name__ == "__main__":
    main()
