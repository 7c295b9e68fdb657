#!/usr/bin/env python3
"""Which wrapped MPI functions do the tested programs call?

Usage: conform_coverage.py TOP_SRCDIR [--list]

Reads the table lib/mpi/mpi_functions.def at run time and fails (exit 1,
naming the functions) if a row is not called in at least one C program and
at least one Fortran program that a test script runs.  --list prints, for
every function, the programs that call it.

A program is "run by a test" when its name (the binary's, e.g. mpi_p2p or
conform_f08) occurs as a word in some tests/*/test_*.sh.  Its sources are
found in the tests/*/*.am fragments (`tests_NAME_SOURCES = ...`, or a make
rule `tests/NAME: ... tests/SRC`); a source no fragment names belongs to
the program of its own name (tests/*/NAME.{c,cc,f,f90,F90}).  So a new
program (tests/mpi/mpi_rma.c, tests/fortran/mpi_rma_f08.f90, ...) counts as soon as a
test script runs it and a fragment builds it.

A call site is `MPI_Name(` in C (comments removed; PMPI_ does not count)
and `call mpi_name` in Fortran (any case; comments removed).  Each Fortran
source is also classified by binding (`include 'mpif.h'`, `use mpi`,
`use mpi_f08`); a .F90 source built several ways counts for every binding
it names.  Only C and Fortran (any binding) are required; --list shows the
bindings.  MPI-4 rows (gen_wrappers.mpi4_only: the large-count forms and
MPI_Isendrecv) are wrapped in C only, so only a C call site is required.
"""
import glob
import os
import re
import sys

SRC_EXT = (".c", ".cc", ".f", ".f90", ".F90")


def mpi4_rule(top):
    """The generator's own rule for C-only (MPI-4) rows."""
    sys.path.insert(0, os.path.join(top, "lib", "mpi"))
    sys.dont_write_bytecode = True     # srcdir may be read-only (distcheck)
    from gen_wrappers import mpi4_only
    return mpi4_only


def table(top):
    names = []
    with open(os.path.join(top, "lib", "mpi", "mpi_functions.def")) as f:
        for line in f:
            m = re.match(r"\s*[a-z_0-9]+\s+(MPI_\w+)\s*\(", line)
            if m and not line.lstrip().startswith("#"):
                names.append(m.group(1))
    return names


def tested_programs(top):
    words = set()
    for sh in glob.glob(os.path.join(top, "tests", "**", "test_*.sh"), recursive=True):
        with open(sh) as f:
            words.update(re.findall(r"[A-Za-z_0-9]+", f.read()))
    return words


def program_sources(top):
    """{program: [source paths]} from the tests/*/*.am fragments."""
    progs = {}
    for am in glob.glob(os.path.join(top, "tests", "**", "*.am"), recursive=True):
        with open(am) as f:
            text = f.read().replace("\\\n", " ")
        for m in re.finditer(r"^tests_(\w+)_SOURCES\s*=(.*)$", text, re.M):
            progs.setdefault(m.group(1), []).extend(re.findall(r"tests/[\w./]+", m.group(2)))
        for m in re.finditer(r"^tests/(\w+)\s*:(?!=)(.*)$", text, re.M):
            progs.setdefault(m.group(1), []).extend(re.findall(r"tests/[\w./]+", m.group(2)))
    out = {}
    for p, srcs in progs.items():
        s = [x for x in srcs if x.endswith(SRC_EXT)]
        if s:
            out[p] = sorted(set(s))
    claimed = {x for srcs in out.values() for x in srcs}
    for path in glob.glob(os.path.join(top, "tests", "**", "*"), recursive=True):
        rel = os.path.relpath(path, top)
        stem, ext = os.path.splitext(os.path.basename(path))
        if ext in SRC_EXT and stem not in out and rel not in claimed:
            out[stem] = [rel]
    return out


def strip_c(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def strip_f(text, fixed):
    lines = []
    for line in text.split("\n"):
        if fixed and line[:1] in ("c", "C", "*"):
            continue
        line = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"", "''", line)
        lines.append(line.split("!")[0])
    return "\n".join(lines)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    names = table(top)
    run = tested_programs(top)
    srcs = program_sources(top)
    calls = {n: {"C": set(), "Fortran": set()} for n in names}
    binding = {}
    for prog in sorted(p for p in srcs if p in run):
        for src in srcs[prog]:
            path = os.path.join(top, src)
            if not os.path.exists(path):
                continue
            with open(path, errors="replace") as f:
                text = f.read()
            ext = os.path.splitext(src)[1]
            if ext in (".c", ".cc"):
                code, lang = strip_c(text), "C"
                found = lambda n: re.search(r"(?<![\w])%s\s*\(" % n, code)
            else:
                code, lang = strip_f(text, ext == ".f"), "Fortran"
                low = code.lower()
                kinds = []
                if re.search(r"include\s*''|#\s*include", low) and "mpif.h" in text.lower():
                    kinds.append("mpif.h")
                if re.search(r"\buse\s+mpi\s*($|,|\n)", low, re.M):
                    kinds.append("use mpi")
                if re.search(r"\buse\s+mpi_f08\b", low):
                    kinds.append("use mpi_f08")
                binding[prog] = kinds
                found = lambda n: re.search(r"\bcall\s+%s\b" % n.lower(), low)
            for n in names:
                if found(n):
                    calls[n][lang].add(prog)
    if "--list" in sys.argv[2:]:
        for n in names:
            fl = ["%s(%s)" % (p, ",".join(binding.get(p, []))) for p in sorted(calls[n]["Fortran"])]
            print("%-32s C: %s | Fortran: %s" % (n, " ".join(sorted(calls[n]["C"])) or "-",
                                              " ".join(fl) or "-"))
    bad = 0
    c_only = mpi4_rule(top)
    for lang in ("C", "Fortran"):
        missing = [n for n in names if not calls[n][lang] and not (lang == "Fortran" and c_only(n))]
        if missing:
            bad = 1
            print("FAIL: %d wrapped function(s) called by no tested %s program: %s"
                  % (len(missing), lang, " ".join(missing)))
    if not bad:
        print("ok: all %d functions of lib/mpi/mpi_functions.def are called by a tested C "
              "program and, but for the %d MPI-4 ones, a tested Fortran program"
              % (len(names), sum(1 for n in names if c_only(n))))
    return bad


if __name__ == "__main__":
    sys.exit(main())
