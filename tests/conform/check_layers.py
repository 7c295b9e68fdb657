#!/usr/bin/env python3
"""check_layers.py TOP - the folders of lib/ and tools/ include only what
their layer may use (doc/design.md, "Folders").  Arrows point down:

    mpi -> runtime -> modes -> exchange -> core
                          \\-> sampler  -> core
    runtime, modes -> format -> core
    tools: report -> merge -> common -> format -> core

A folder may include its own headers and those of the folders listed for it
below; generated headers live with the folder that generates them.  Every
include of a project header names its folder ("core/pathset.h",
"common/profile.h"); only the public rpprof.h and configure's config.h are
bare.  Prints every violation (file, line, included header) and exits 1 if
there is one; also fails if a folder of lib/ or tools/ is not in the table
(a new folder must be placed in the layering first), or if a source file
sits directly in lib/ or tools/.

Also: a header X.h of lib/ or tools/ that has a source X.c declares only
functions that X.c defines (one header per module, declaring exactly that module's
functions; static inline helpers are the header's own)."""
import os
import re
import sys

ALLOWED = {
    "core": set(),
    "format": {"core"},
    "sampler": {"core"},
    "exchange": {"core"},
    "modes": {"exchange", "sampler", "format", "core"},
    "runtime": {"modes", "exchange", "sampler", "format", "core"},
    "mpi": {"runtime", "modes", "exchange", "sampler", "format", "core"},
    # tools/: lib's folder names and these are distinct, so one table
    "common": {"format", "core"},
    "merge": {"common", "format", "core"},
    "report": {"merge", "common", "format", "core"},
    "run": set(),
}
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
PROTO = re.compile(r'^(?!static|typedef|extern\s+"|#|\s)[A-Za-z_][\w \t\*]*?\b([a-z_]\w*)\s*\(', re.M)
DEF = r'^(?!static)[A-Za-z_][\w \t\*]*?\b%s\s*\([^;]*?\)\s*(__attribute__\S*\s*)?\{'


def header_owns(top):
    """Functions a lib/ header declares that its own .c does not define."""
    bad = []
    for d, _, files in (w for base in ("lib", "tools") for w in os.walk(os.path.join(top, base))):
        for f in files:
            if not f.endswith(".h"):
                continue
            c = os.path.join(d, f[:-2] + ".c")
            if not os.path.exists(c):
                continue
            with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                h = re.sub(r"/\*.*?\*/", " ", fh.read(), flags=re.S)
            with open(c, encoding="utf-8", errors="replace") as fh:
                src = re.sub(r"/\*.*?\*/", " ", fh.read(), flags=re.S)
            for name in sorted(set(PROTO.findall(h)) - {"__attribute__"}):
                if not re.search(DEF % re.escape(name), src, re.M | re.S):
                    bad.append("%s declares %s(), which %s does not define" %
                               (os.path.relpath(os.path.join(d, f), top), name, os.path.basename(c)))
    return bad


def main(top):
    bad = []
    seen = set()
    for base in ("lib", "tools"):
        for d, _, files in os.walk(os.path.join(top, base)):
            rel = os.path.relpath(d, top).split(os.sep)
            folder = rel[1] if len(rel) > 1 else None
            for f in files:
                if not f.endswith((".c", ".h", ".cc")):
                    continue
                if folder is None:
                    bad.append("%s: a source file directly in %s/ (put it in a folder)" % (os.path.join(*rel, f), base))
                    continue
                if folder not in ALLOWED:
                    bad.append("%s/%s: folder not in the layering table of %s" % (base, folder, __file__))
                    continue
                seen.add(folder)
                path = os.path.join(d, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for no, line in enumerate(fh, 1):
                        m = INC.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        if "/" not in inc:
                            # the public header, configure's config.h (the MPI calls the
                            # library has: RP_HAVE_MPI_*)
                            if inc not in ("rpprof.h", "config.h"):
                                bad.append("%s:%d: #include \"%s\" without its folder" %
                                           (os.path.relpath(path, top), no, inc))
                            continue
                        target = inc.split("/")[0]
                        if target != folder and target not in ALLOWED[folder]:
                            bad.append("%s:%d: %s may not include %s (%s -> %s points up or sideways)" %
                                       (os.path.relpath(path, top), no, folder, inc, folder, target))
    bad += header_owns(top)
    for b in bad:
        print("FAIL: " + b)
    if bad:
        return 1
    print("ok: %d folders of lib/ and tools/, every include points down the layering; every header declares only its own file's functions" % len(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
