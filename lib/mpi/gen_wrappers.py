#!/usr/bin/env python3
"""Generate rpprof's MPI wrapper layer from lib/mpi/mpi_functions.def.

Usage: gen_wrappers.py TABLE OUT_DIR | gen_wrappers.py --coll-names TABLE HEADER
Writes OUT_DIR/gen_fnids.h (an id per wrapped function) and OUT_DIR/gen_wrap.c
(the name table and every wrapper whose KIND is not 'custom').
gen_wrappers.py --coll-names TABLE HEADER writes the names of the collective
calls for the tools (tools/common/gen_fncoll.h: a rank file names its events, and
the reports give a collective rank -1 and read a path's move between ranks
there as a collective).  Each wrapper
is a thin adapter: it brackets the PMPI call with rp_enter/rp_leave and calls
the hook of its kind (lib/mpi/hooks.h); the path logic lives in the hooks.
"""
import re
import sys

KINDS = {"event", "send", "isend", "recv", "irecv", "mprobe", "mrecv", "imrecv",
         "sendrecv", "isendrecv",
         "psend_init", "precv_init",
         "coll_all", "barrier", "bcast", "coll_in", "coll_out", "coll_scan", "comm_new",
         "comm_free", "custom", "nbc_all", "nbc_in", "nbc_out", "nbc_scan",
         "neighbor", "nbc_neighbor", "win_new", "win_free", "win_fence", "rma_sync", "local",
         "file_open", "file_close", "file_coll", "file_nbc",
         "pcoll_init", "part_init"}
# Kinds at which every member of a communicator (or of a neighbourhood, or
# of a window's group) joins the others: the tools' "collective" events.
COLLECTIVE = {"coll_all", "barrier", "bcast", "coll_in", "coll_out", "coll_scan", "nbc_all", "nbc_in", "nbc_out",
              "nbc_scan", "neighbor", "nbc_neighbor", "win_fence", "file_open", "file_close",
              "file_coll", "file_nbc"}
# Non-blocking kinds whose completion joins the member's own set as of its
# call (lib/mpi/wrap_coll.c rp_nbc_complete: all, prefix, and a rooted
# gather's root): on one rank a path may go from the call straight to the
# completion, skipping the tasks between (tools/common/paths.c set_via).
NBC_SELF = {"nbc_all", "nbc_in", "nbc_scan", "file_nbc"}
LINE = re.compile(r"^(\w+)\s+(MPI_\w+)\s*\((.*)\)\s*$")
# MPI-4 functions without a large-count suffix, by the configure test
# (config.h macro) that says the library has them.
MPI4_NAMES = {"MPI_Isendrecv": "RP_HAVE_MPI_ISENDRECV",
              "MPI_Isendrecv_replace": "RP_HAVE_MPI_ISENDRECV",
              "MPI_Psend_init": "RP_HAVE_MPI_PART", "MPI_Precv_init": "RP_HAVE_MPI_PART",
              "MPI_Pready": "RP_HAVE_MPI_PART", "MPI_Pready_range": "RP_HAVE_MPI_PART",
              "MPI_Parrived": "RP_HAVE_MPI_PART",
              "MPI_Session_init": "RP_HAVE_MPI_SESSIONS"}
# MPI-4 persistent collectives: MPI_X_init of a collective X (the
# point-to-point MPI_X_init are MPI-1's)
PCOLL = re.compile(r"^MPI_(?!(Send|Ssend|Bsend|Rsend|Recv)_init)\w+_init(_c)?$")


def mpi4_gate(name):
    """The preprocessor condition under which an MPI-4 function's C wrapper
    is compiled (configure links the MPI library to see whether it has the
    call: Open MPI 5 has MPI_Isendrecv under MPI_VERSION 3, and an MPI-4
    library may lack a part), or None for the others."""
    need = []
    if name.endswith("_c"):
        need.append("RP_HAVE_MPI_LARGE_COUNT")
    if PCOLL.match(name) and name not in MPI4_NAMES:
        need.append("RP_HAVE_MPI_PCOLL")
    base = name[:-2] if name.endswith("_c") else name
    if base in MPI4_NAMES:
        need.append(MPI4_NAMES[base])
    return " && ".join("defined(%s)" % m for m in need) or None


def mpi4_only(name):
    """An MPI-4 function (the large-count forms MPI_X_c, the persistent
    collectives and MPI4_NAMES): its C wrapper is compiled only where the
    library has it (mpi4_gate), and it has no Fortran wrapper (MPICH's
    Fortran bindings of these call the C functions: doc/design.md, "MPI-4")."""
    return mpi4_gate(name) is not None


def parse(path):
    funcs = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = LINE.match(line)
            if not m:
                sys.exit("%s:%d: cannot parse: %s" % (path, lineno, raw.rstrip()))
            kind, name, params = m.groups()
            if kind not in KINDS:
                sys.exit("%s:%d: unknown kind %r" % (path, lineno, kind))
            plist = [] if params.strip() == "void" else [p.strip() for p in params.split(",")]
            args = []
            for p in plist:
                am = re.search(r"(\w+)\s*(\[\s*\])?$", p)
                if not am:
                    sys.exit("%s:%d: bad parameter %r" % (path, lineno, p))
                args.append(am.group(1))
            funcs.append((kind, name, params.strip(), args))
    names = [f[1] for f in funcs]
    if len(names) != len(set(names)):
        sys.exit("%s: duplicate function" % path)
    return funcs


def need(args, name, *wanted):
    for w in wanted:
        if w not in args:
            sys.exit("%s: kind needs a parameter named %r" % (name, w))


# A status the hook can read even when the caller passed
# MPI_STATUS_IGNORE: the call writes into rp_st (recv, mprobe, mrecv).
STATUS_BUF = ["    MPI_Status rp_stbuf;",
              "    MPI_Status *rp_st = (status == MPI_STATUS_IGNORE) ? &rp_stbuf : status;"]


def bracket(fid, stmt, before=(), after=(), local=False):
    """Lines of a profiled call: the event bracket (rp_enter/rp_leave, or
    with local the bracket of a local call) around stmt, the statement that
    makes the real call; `before` lines come right after the entry, `after`
    lines right after the call.  Shared with gen_fortran.py."""
    enter, leave = ("rp_enter_local", "rp_leave_local") if local else ("rp_enter", "rp_leave")
    return (["    %s(%s);" % (enter, fid)] + ["    " + x for x in before] + ["    %s;" % stmt] +
            ["    " + x for x in after] + ["    %s();" % leave])


def if_ok(hook, rc="rc"):
    """A hook called only when the real call succeeded."""
    return "if (%s == MPI_SUCCESS) %s;" % (rc, hook)


def body(kind, name, args):
    fid = "RP_FN_" + name
    call = "P%s(%s)" % (name, ", ".join(args))
    stmt = "int rc = " + call
    st_stmt = stmt.replace("status)", "rp_st)")   # the status kinds: rp_st never IGNORE
    large = name.endswith("_c")   # counts are MPI_Count
    if kind == "event":
        return bracket(fid, stmt)
    if kind in ("send", "isend"):
        # The path-set goes first: it is on its way while the payload is
        # sent, so the receiver can join it before the payload is in.
        need(args, name, "count", "datatype", "dest", "tag", "comm")
        count = "rp_count_int(count)" if large else "count"
        return bracket(fid, stmt,
                       ["int rp_sent = rp_hook_branch_first(%s, datatype, dest, tag, comm);" % count],
                       ["if (!rp_sent && rc == MPI_SUCCESS) rp_hook_branch_after(dest, tag, comm);"])
    if kind == "sendrecv":
        # the outgoing set is the one before this join: sent first
        need(args, name, "dest", "sendtag", "source", "recvtag", "status", "comm")
        return STATUS_BUF + bracket(fid, st_stmt, ["rp_hook_branch(dest, sendtag, comm);"],
                                    [if_ok("rp_hook_join(rp_st, comm)")])
    if kind == "isendrecv":
        # a branch now, like MPI_Isend, and a receive joined at completion,
        # like MPI_Irecv (the request's status is the receive's)
        need(args, name, "dest", "sendtag", "source", "recvtag", "request", "comm")
        return bracket(fid, stmt, ["rp_hook_branch(dest, sendtag, comm);"],
                       [if_ok("rp_hook_isendrecv(*request, source, recvtag, comm)")])
    if kind == "recv" and large:
        # no early path-set receive (rp_recv_overlap posts the payload with
        # an int count): join once the payload is in
        need(args, name, "status", "comm")
        return STATUS_BUF + bracket(fid, st_stmt, after=[if_ok("rp_hook_join(rp_st, comm)")])
    if kind == "recv":
        need(args, name, "buf", "count", "datatype", "source", "tag", "status", "comm")
        call = call.replace("status)", "rp_st)")
        return STATUS_BUF + ["    rp_enter(%s);" % fid, "    int rc;",
                "    if (!rp_recv_overlap(buf, count, datatype, source, tag, comm, rp_st, &rc)) {",
                "        rc = %s;" % call,
                "        if (rc == MPI_SUCCESS) rp_hook_join(rp_st, comm);",
                "    }",
                "    rp_leave();"]
    if kind == "irecv":
        need(args, name, "source", "tag", "comm", "request")
        return bracket(fid, stmt, after=[if_ok("rp_hook_irecv(*request, source, tag, comm, 0)")],
                       local=True)
    if kind == "mprobe":
        # the status names the matched message's source and tag
        need(args, name, "comm", "message", "status")
        matched = "rc == MPI_SUCCESS && *flag" if "flag" in args else "rc == MPI_SUCCESS"
        return STATUS_BUF + bracket(fid, st_stmt, after=[
            "if (%s) rp_hook_mprobe(*message, rp_st, comm);" % matched])
    if kind == "mrecv":
        # the call sets *message to MPI_MESSAGE_NULL: the hook gets it as it was
        need(args, name, "message", "status")
        return (STATUS_BUF + ["    MPI_Message rp_msg = *message;"] +
                bracket(fid, st_stmt, after=[if_ok("rp_hook_mrecv(rp_msg, rp_st)")]))
    if kind == "imrecv":
        need(args, name, "message", "request")
        return ["    MPI_Message rp_msg = *message;"] + bracket(
            fid, stmt, after=[if_ok("rp_hook_imrecv(rp_msg, *request)")], local=True)
    if kind == "psend_init":
        need(args, name, "dest", "tag", "comm", "request")
        return bracket(fid, stmt, after=[if_ok("rp_hook_psend_init(*request, dest, tag, comm)")],
                       local=True)
    if kind == "precv_init":
        need(args, name, "source", "tag", "comm", "request")
        return bracket(fid, stmt, after=[if_ok("rp_hook_irecv(*request, source, tag, comm, 1)")],
                       local=True)
    if kind == "coll_all":
        need(args, name, "comm")
        return bracket(fid, stmt, ["rp_hook_coll_all_start(comm);"],
                       [if_ok("rp_hook_coll_all(comm)"), "else rp_hook_coll_abort();"])
    if kind == "barrier":
        # the path exchange is the barrier where it runs (rp_hook_barrier)
        need(args, name, "comm")
        return ["    rp_enter(%s);" % fid, "    int rc = MPI_SUCCESS;",
                "    if (!rp_hook_barrier(comm)) {",
                "        rp_hook_coll_all_start(comm);",
                "        rc = %s;" % call,
                "        " + if_ok("rp_hook_coll_all(comm)"),
                "        else rp_hook_coll_abort();",
                "    }",
                "    rp_leave();"]
    if kind == "bcast":
        # a small broadcast carries the root's set (rp_hook_bcast)
        need(args, name, "buffer", "count", "datatype", "root", "comm")
        return ["    rp_enter(%s);" % fid, "    int rc = MPI_SUCCESS;",
                "    if (!rp_hook_bcast(buffer, count, datatype, root, comm, &rc)) {",
                "        rp_hook_coll_out_start(root, comm);",
                "        rc = %s;" % call,
                "        " + if_ok("rp_hook_coll_out(root, comm)"),
                "        else rp_hook_coll_rooted_abort();",
                "    }",
                "    rp_leave();"]
    if kind == "coll_scan":
        need(args, name, "comm")
        return bracket(fid, stmt, after=[if_ok("rp_hook_%s(comm)" % kind)])
    if kind in ("coll_in", "coll_out"):
        need(args, name, "root", "comm")
        return bracket(fid, stmt, ["rp_hook_%s_start(root, comm);" % kind],
                       [if_ok("rp_hook_%s(root, comm)" % kind), "else rp_hook_coll_rooted_abort();"])
    if kind in ("nbc_all", "nbc_in", "nbc_out", "nbc_scan"):
        need(args, name, "comm", "request")
        root = "root" if "root" in args else "-1"
        kconst = {"nbc_all": "RP_COLL_ALL", "nbc_in": "RP_COLL_IN",
                  "nbc_out": "RP_COLL_OUT", "nbc_scan": "RP_COLL_SCAN"}[kind]
        return bracket(fid, stmt, after=[if_ok("rp_hook_nbc(%s, %s, comm, *request)" % (kconst, root))])
    if kind == "neighbor":
        need(args, name, "comm")
        return bracket(fid, stmt, after=[if_ok("rp_hook_neighbor(comm)")])
    if kind in ("pcoll_init", "part_init"):
        # MPI-4 persistent collective or partitioned set-up: local; the
        # request's starts are counted as not followed (unfollowed_starts)
        need(args, name, "comm", "request")
        return bracket(fid, stmt, after=[if_ok("rp_hook_unfollowed_init(*request)")], local=True)
    if kind == "nbc_neighbor":
        need(args, name, "comm", "request")
        return bracket(fid, stmt, after=[if_ok("rp_hook_nbc(RP_NBC_NEIGHBOR, -1, comm, *request)")])
    if kind == "win_new":
        need(args, name, "comm", "win")
        return bracket(fid, stmt, after=[if_ok("rp_hook_win_new(comm, *win)")])
    if kind == "win_free":
        need(args, name, "win")
        return bracket(fid, stmt, ["rp_hook_win_free(*win);"])
    if kind == "win_fence":
        need(args, name, "win")
        return bracket(fid, stmt, after=[if_ok("rp_hook_win_fence(win)")])
    if kind == "rma_sync":
        return bracket(fid, stmt, after=["rp_hook_rma_sync();"])
    if kind == "local":
        return bracket(fid, stmt, local=True)
    # MPI-IO (wrap_io.c).  A file's errors return by default
    # (MPI_ERRORS_RETURN), possibly on some members only: a collective
    # operation joins whatever it returned, so that every member that called
    # it takes part in the join; the opening and a non-blocking one need a
    # valid handle or request.  A close drops the file's shadow when it
    # freed the handle (ROMIO frees it even when the close fails).
    if kind == "file_open":
        need(args, name, "comm", "fh")
        return bracket(fid, stmt, after=[if_ok("rp_hook_file_open(comm, *fh)")])
    if kind == "file_close":
        need(args, name, "fh")
        return bracket(fid, stmt, ["MPI_File rp_fh = *fh;"],
                       ["rp_hook_file_close(rp_fh, *fh == MPI_FILE_NULL);"])
    if kind == "file_coll":
        need(args, name, "fh")
        return bracket(fid, stmt, after=["rp_hook_file_coll(fh);"])
    if kind == "file_nbc":
        need(args, name, "fh", "request")
        return bracket(fid, stmt, after=[if_ok("rp_hook_file_nbc(fh, *request)")])
    if kind == "comm_new":
        need(args, name, "newcomm")
        return bracket(fid, stmt, after=[if_ok("rp_hook_comm_new(*newcomm)")])
    if kind == "comm_free":
        need(args, name, "comm")
        return bracket(fid, stmt, ["rp_hook_comm_free(*comm);"])
    raise AssertionError(kind)


def write_names(h, comment, var, names):
    """A C array of sorted function names, for the tools' bsearch."""
    h.write("/* %s, sorted by name. */\n" % comment)
    h.write("static const char *const %s[] = {\n" % var)
    for name in sorted(names):
        h.write('    "%s",\n' % name)
    h.write("};\n")


def write_coll_names(funcs, path, banner):
    with open(path, "w") as h:
        h.write(banner)
        h.write("#ifndef RP_GEN_FNCOLL_H\n#define RP_GEN_FNCOLL_H\n")
        write_names(h, "Collective calls (kinds %s)" % ", ".join(sorted(COLLECTIVE)),
                    "rp_gen_coll_names", [n for kind, n, _, _ in funcs if kind in COLLECTIVE])
        write_names(h, "Non-blocking collectives whose completion joins the member's own call\n"
                    " * (kinds %s)" % ", ".join(sorted(NBC_SELF)),
                    "rp_gen_nbc_self_names", [n for kind, n, _, _ in funcs if kind in NBC_SELF])
        h.write("#endif\n")


def main():
    banner = "/* Generated by lib/mpi/gen_wrappers.py from lib/mpi/mpi_functions.def - do not edit. */\n"
    if len(sys.argv) == 4 and sys.argv[1] == "--coll-names":
        write_coll_names(parse(sys.argv[2]), sys.argv[3], banner)
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    funcs = parse(sys.argv[1])
    out = sys.argv[2]
    with open(out + "/gen_fnids.h", "w") as h:
        h.write(banner)
        h.write("#ifndef RP_GEN_FNIDS_H\n#define RP_GEN_FNIDS_H\nenum {\n")
        for _, name, _, _ in funcs:
            h.write("    RP_FN_%s,\n" % name)
        h.write("    RP_FN__COUNT\n};\n#endif\n")
    with open(out + "/gen_wrap.c", "w") as c:
        c.write(banner)
        c.write('#include "config.h"   /* RP_HAVE_MPI_*: the MPI-4 calls the library has */\n'
                '#include <mpi.h>\n#include "mpi/hooks.h"\n\n')
        c.write("static const char *const rp_fn_names[RP_FN__COUNT] = {\n")
        for _, name, _, _ in funcs:
            c.write('    "%s",\n' % name)
        c.write("};\n\n")
        c.write("const char *rp_fn_name(int fn)\n{\n"
                "    return (fn >= 0 && fn < RP_FN__COUNT) ? rp_fn_names[fn] : \"MPI_?\";\n}\n\n")
        c.write("int rp_fn_count(void) { return RP_FN__COUNT; }\n\n")
        for kind, name, params, args in funcs:
            if kind == "custom":
                continue
            if mpi4_only(name):
                c.write("#if %s\n" % mpi4_gate(name))
            if name == "MPI_Compare_and_swap":
                # SMPI declares compare_addr without const; configure
                # probes mpi.h and defines RP_CAS_CONST to match.
                params = params.replace("const void *compare_addr", "RP_CAS_CONST void *compare_addr")
            c.write("RP_EXPORT int %s(%s)\n{\n" % (name, params))
            c.write("    if (!rp_active()) return P%s(%s);\n" % (name, ", ".join(args)))
            c.write("\n".join(body(kind, name, args)) + "\n")
            c.write("    return rc;\n}\n")
            c.write("#endif\n\n" if mpi4_only(name) else "\n")


if __name__ == "__main__":
    main()
