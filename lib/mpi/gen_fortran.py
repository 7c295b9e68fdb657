#!/usr/bin/env python3
"""Generate rpprof's Fortran entry points from lib/mpi/mpi_functions.def.

Usage: gen_fortran.py TABLE OUT_DIR
Writes OUT_DIR/gen_fortran.h and OUT_DIR/gen_fortran.c (doc/fortran.md).

For every function of the table (custom ones included) gen_fortran.c defines
the Fortran entry points an MPI program may call:

    mpi_send_   (gfortran, ifort, flang: mpif.h and `use mpi`)
    mpi_send__  mpi_send  MPI_SEND   (other manglings: aliases of mpi_send_)
    mpi_send_f08_                      (`use mpi_f08`, Open MPI's binding name)

Each one calls rpf_MPI_Send(abi, args...): for the kinds of the table the
body is generated here (same hooks as the C wrapper of that kind, handles
converted with PMPI_*_f2c); for `custom` functions it is hand-written in
lib/mpi/fortran.c with the prototype declared in gen_fortran.h.  The real
Fortran binding (pmpi_send_, pmpi_send_f08_) is found by rpf_real()
(lib/mpi/fortran.c) with rp_dlnext (dlsym RTLD_NEXT), once per function and ABI.

Fortran passes every argument by reference: a C parameter `void *buf`
stays a buffer pointer (MPI_IN_PLACE/MPI_BOTTOM arrive as the addresses of
the Fortran sentinels and go on unchanged to the real binding); every other
parameter becomes a pointer to its Fortran type (MPI_Fint for handles,
integers, logicals, arrays, statuses).  The last argument is `ierror`, which
is NULL when a `use mpi_f08` caller omits it.
"""
import os
import re
import sys

sys.dont_write_bytecode = True     # srcdir may be read-only (distcheck)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_wrappers import parse, need, bracket, if_ok, mpi4_only  # noqa: E402  (the table parser)

# Fortran parameter lists that differ from the C ones (no argc/argv).
FORTRAN_PARAMS = {
    "MPI_Init": [],
    "MPI_Init_thread": [("MPI_Fint *", "required"), ("MPI_Fint *", "provided")],
}

# Non-blocking collectives: the C generator's kind -> shape constant.
NBC_SHAPE = {"nbc_all": "RP_COLL_ALL", "nbc_in": "RP_COLL_IN",
             "nbc_out": "RP_COLL_OUT", "nbc_scan": "RP_COLL_SCAN"}

# Fortran types of C parameter types passed by reference.
SCALAR_MAP = {"MPI_Aint": "MPI_Aint *", "MPI_Offset": "MPI_Offset *",
              "MPI_Count": "MPI_Count *"}


def fortran_params(name, params, args):
    """[(ctype, argname)] of the Fortran entry point (without ierror)."""
    if name in FORTRAN_PARAMS:
        return FORTRAN_PARAMS[name]
    if params.strip() == "void":
        return []
    out = []
    for p, a in zip([p.strip() for p in params.split(",")], args):
        if re.search(r"\bchar\b", p):
            if not re.match(r"^(const\s+)?char\s*\*\s*\w+$", p):
                sys.exit("%s: parameter %r: only a single string (char *) is generated; "
                         "write this Fortran wrapper by hand" % (name, p))
            out.append(("char *", a))          # CHARACTER(*): hidden length at the end
            continue
        base = re.sub(r"\bconst\b", "", p)
        base = re.sub(r"\w+\s*(\[\s*\])?$", "", base).replace("*", "").strip()
        if base == "void":
            out.append(("void *", a))          # choice buffer
        elif base in SCALAR_MAP:
            out.append((SCALAR_MAP[base], a))
        else:
            out.append(("MPI_Fint *", a))      # handle, int, logical, array, status
    return out


def hidden(fparams):
    """The hidden lengths of CHARACTER arguments, passed after ierror
    (gfortran >= 8: size_t; a binding that reads an int gets the same low
    bits on the 64-bit ABIs)."""
    return [a + "_len" for t, a in fparams if t == "char *"]


def decl(fparams):
    return ", ".join(["%s%s" % (t, a) for t, a in fparams] + ["MPI_Fint *ierror"] +
                     ["size_t " + h for h in hidden(fparams)])


def call_args(fparams, subst=None):
    subst = subst or {}
    return ", ".join([subst.get(a, a) for _, a in fparams] + ["&rp_err"] + hidden(fparams))


# A status the hook can read even when the caller passed MPI_STATUS_IGNORE
# (the call writes into rp_st), and the hook call given the status in C.
STATUS_BUF = ["    MPI_Fint rp_stbuf[RPF_STATUS_MAX];",
              "    MPI_Fint *rp_st = rpf_status_ignore(status) ? rp_stbuf : status;"]


def with_status(cond, hook):
    """Lines after the call: if (cond), hook(...) with &rp_cst, the C status
    of rp_st."""
    return ["if (%s) {" % cond,
            "    MPI_Status rp_cst;",
            "    PMPI_Status_f2c(rp_st, &rp_cst);",
            "    %s;" % hook,
            "}"]


def ok(hook):
    """A hook called only when the real binding succeeded."""
    return if_ok(hook, "rp_err")


def body(kind, name, fparams):
    """Lines of rpf_NAME's profiled part (after the !rp_active() forward)."""
    args = [a for _, a in fparams]
    fid = "RP_FN_" + name
    stmt = "real(%s)" % call_args(fparams)
    st_stmt = "real(%s)" % call_args(fparams, {"status": "rp_st"})   # the status kinds
    comm = "PMPI_Comm_f2c(*comm)"
    if kind == "event":
        return bracket(fid, stmt)
    if kind == "rma_sync":
        return bracket(fid, stmt, after=["rp_hook_rma_sync();"])
    if kind in ("send", "isend"):
        # The path-set goes before the payload, as in the C wrappers.
        need(args, name, "count", "datatype", "dest", "tag", "comm")
        return bracket(fid, stmt,
                       ["int rp_sent = rp_hook_branch_first(*count, PMPI_Type_f2c(*datatype), "
                        "*dest, *tag, %s);" % comm],
                       ["if (!rp_sent && rp_err == MPI_SUCCESS) rp_hook_branch_after(*dest, *tag, %s);" % comm])
    if kind == "recv":
        need(args, name, "status", "comm")
        return STATUS_BUF + bracket(fid, st_stmt, after=with_status(
            "rp_err == MPI_SUCCESS", "rp_hook_join(&rp_cst, %s)" % comm))
    if kind == "sendrecv":
        # as the C wrapper: the outgoing set is the one before this join
        need(args, name, "dest", "sendtag", "source", "recvtag", "status", "comm")
        return STATUS_BUF + bracket(fid, st_stmt, ["rp_hook_branch(*dest, *sendtag, %s);" % comm],
                                    with_status("rp_err == MPI_SUCCESS",
                                                "rp_hook_join(&rp_cst, %s)" % comm))
    if kind in ("irecv", "precv_init"):
        need(args, name, "source", "tag", "comm", "request")
        return bracket(fid, stmt, after=[
            "if (rp_err == MPI_SUCCESS)",
            "    rp_hook_irecv(PMPI_Request_f2c(*request), *source, *tag, %s, %d);"
            % (comm, 1 if kind == "precv_init" else 0)], local=True)
    if kind == "mprobe":
        need(args, name, "comm", "message", "status")
        matched = "rp_err == MPI_SUCCESS && *flag" if "flag" in args else "rp_err == MPI_SUCCESS"
        return STATUS_BUF + bracket(fid, st_stmt, after=with_status(
            matched, "rp_hook_mprobe(PMPI_Message_f2c(*message), &rp_cst, %s)" % comm))
    if kind == "mrecv":
        need(args, name, "message", "status")
        return (STATUS_BUF + ["    MPI_Message rp_msg = PMPI_Message_f2c(*message);"] +
                bracket(fid, st_stmt, after=with_status("rp_err == MPI_SUCCESS",
                                                         "rp_hook_mrecv(rp_msg, &rp_cst)")))
    if kind == "imrecv":
        need(args, name, "message", "request")
        return ["    MPI_Message rp_msg = PMPI_Message_f2c(*message);"] + bracket(
            fid, stmt, after=[ok("rp_hook_imrecv(rp_msg, PMPI_Request_f2c(*request))")], local=True)
    if kind == "psend_init":
        need(args, name, "dest", "tag", "comm", "request")
        return bracket(fid, stmt, after=[
            "if (rp_err == MPI_SUCCESS)",
            "    rp_hook_psend_init(PMPI_Request_f2c(*request), *dest, *tag, %s);" % comm],
            local=True)
    if kind == "coll_all":
        need(args, name, "comm")
        return bracket(fid, stmt, ["rp_hook_coll_all_start(%s);" % comm],
                       [ok("rp_hook_coll_all(%s)" % comm), "else rp_hook_coll_abort();"])
    if kind == "barrier":
        # as the C wrapper: the path exchange is the barrier where it runs
        need(args, name, "comm")
        return ["    rp_enter(%s);" % fid,
                "    MPI_Comm rp_comm = %s;" % comm,
                "    if (!rp_hook_barrier(rp_comm)) {",
                "        rp_hook_coll_all_start(rp_comm);",
                "        %s;" % stmt,
                "        " + ok("rp_hook_coll_all(rp_comm)"),
                "        else rp_hook_coll_abort();",
                "    }",
                "    rp_leave();"]
    if kind == "coll_scan":
        need(args, name, "comm")
        return bracket(fid, stmt, after=[ok("rp_hook_%s(%s)" % (kind, comm))])
    if kind == "bcast":
        kind = "coll_out"   # the carried set (rp_hook_bcast) is C's only: a
        # Fortran buffer may be MPI_BOTTOM's Fortran address, which only the
        # library's own binding converts
    if kind in ("coll_in", "coll_out"):
        need(args, name, "root", "comm")
        return bracket(fid, stmt, ["rp_hook_%s_start(*root, %s);" % (kind, comm)],
                       [ok("rp_hook_%s(*root, %s)" % (kind, comm)), "else rp_hook_coll_rooted_abort();"])
    if kind in NBC_SHAPE:
        need(args, name, "comm", "request")
        root = "*root" if "root" in args else "-1"
        return bracket(fid, stmt, after=[
            "if (rp_err == MPI_SUCCESS)",
            "    rp_hook_nbc(%s, %s, %s, PMPI_Request_f2c(*request));" % (NBC_SHAPE[kind], root, comm)])
    if kind == "neighbor":
        need(args, name, "comm")
        return bracket(fid, stmt, after=[ok("rp_hook_neighbor(%s)" % comm)])
    if kind == "nbc_neighbor":
        need(args, name, "comm", "request")
        return bracket(fid, stmt, after=[
            "if (rp_err == MPI_SUCCESS)",
            "    rp_hook_nbc(RP_NBC_NEIGHBOR, -1, %s, PMPI_Request_f2c(*request));" % comm])
    if kind == "win_new":
        need(args, name, "comm", "win")
        return bracket(fid, stmt, after=[ok("rp_hook_win_new(%s, PMPI_Win_f2c(*win))" % comm)])
    if kind == "win_free":
        need(args, name, "win")
        return bracket(fid, stmt, ["rp_hook_win_free(PMPI_Win_f2c(*win));"])
    if kind == "win_fence":
        need(args, name, "win")
        return bracket(fid, stmt, after=[ok("rp_hook_win_fence(PMPI_Win_f2c(*win))")])
    if kind == "local":
        return bracket(fid, stmt, local=True)
    fh = "PMPI_File_f2c(*fh)"
    if kind == "file_open":
        need(args, name, "comm", "fh")
        return bracket(fid, stmt, after=[ok("rp_hook_file_open(%s, %s)" % (comm, fh))])
    if kind == "file_close":
        need(args, name, "fh")
        return bracket(fid, stmt, ["MPI_File rp_fh = %s;" % fh],
                       ["rp_hook_file_close(rp_fh, *fh == PMPI_File_c2f(MPI_FILE_NULL));"])
    if kind == "file_coll":
        need(args, name, "fh")
        return bracket(fid, stmt, after=["rp_hook_file_coll(%s);" % fh])
    if kind == "file_nbc":
        need(args, name, "fh", "request")
        return bracket(fid, stmt, after=[ok("rp_hook_file_nbc(%s, PMPI_Request_f2c(*request))" % fh)])
    if kind == "comm_new":
        need(args, name, "newcomm")
        return bracket(fid, stmt, after=[ok("rp_hook_comm_new(PMPI_Comm_f2c(*newcomm))")])
    if kind == "comm_free":
        need(args, name, "comm")
        return bracket(fid, stmt, ["rp_hook_comm_free(%s);" % comm])
    sys.exit("%s: kind %r has no Fortran wrapper in lib/mpi/gen_fortran.py "
             "(add it there, or make the function custom and write it in lib/mpi/fortran.c)"
             % (name, kind))


class AtomicFile:
    """Written to a temporary name, renamed into place on success: a parallel
    make may run the rule once per target, and a reader never sees half a file."""

    def __init__(self, path):
        self.path, self.tmp = path, "%s.tmp%d" % (path, os.getpid())

    def __enter__(self):
        self.f = open(self.tmp, "w")
        return self.f

    def __exit__(self, exc, *rest):
        self.f.close()
        if exc is None:
            os.replace(self.tmp, self.path)
        else:
            os.unlink(self.tmp)
        return False


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    funcs = parse(sys.argv[1])
    # MPI-4 rows have C wrappers only (NULL in rpf_names, which is indexed by id)
    fortran = [f for f in funcs if not mpi4_only(f[1])]
    out = sys.argv[2]
    banner = "/* Generated by lib/mpi/gen_fortran.py from lib/mpi/mpi_functions.def - do not edit. */\n"
    with AtomicFile(out + "/gen_fortran.h") as h:
        h.write(banner)
        h.write("#ifndef RP_GEN_FORTRAN_H\n#define RP_GEN_FORTRAN_H\n\n"
                "#include <mpi.h>\n#include \"mpi/gen_fnids.h\"\n\n")
        h.write("/* Lower-case base names (\"mpi_send\"), indexed by function id; NULL for\n"
                " * the functions without a Fortran wrapper (MPI-4: C only). */\n"
                "extern const char *const rpf_names[RP_FN__COUNT];\n\n")
        h.write("/* The Fortran prototype of each function (of its entry points and of\n"
                " * the real binding), and the hand-written bodies of the custom ones. */\n")
        for kind, name, params, args in fortran:
            fp = fortran_params(name, params, args)
            h.write("typedef void rpf_t_%s(%s);\n" % (name, decl(fp)))
            if kind == "custom":
                h.write("__attribute__((visibility(\"hidden\"))) void rpf_%s(int abi%s);\n"
                        % (name, "".join(", %s%s" % (t, a) for t, a in fp) + ", MPI_Fint *ierror" +
                           "".join(", size_t " + x for x in hidden(fp))))
        h.write("\n#endif\n")
    with AtomicFile(out + "/gen_fortran.c") as c:
        c.write(banner)
        c.write("#include <mpi.h>\n#include \"mpi/hooks.h\"\n#include \"mpi/fortran.h\"\n"
                "#include \"mpi/gen_fortran.h\"\n\n")
        c.write("const char *const rpf_names[RP_FN__COUNT] = {\n")
        for _, name, _, _ in funcs:
            if mpi4_only(name):
                c.write("    NULL,   /* %s: C only */\n" % name)
            else:
                c.write('    "%s",\n' % name.lower())
        c.write("};\n")
        for kind, name, params, args in fortran:
            fp = fortran_params(name, params, args)
            low = name.lower()
            fargs = ", ".join([a for _, a in fp] + ["ierror"] + hidden(fp))
            c.write("\n/* ---- %s (%s) ---- */\n" % (name, kind))
            if kind != "custom":
                c.write("static void rpf_%s(int abi, %s)\n{\n" % (name, decl(fp)))
                c.write("    rpf_t_%s *real = (rpf_t_%s *)rpf_real(RP_FN_%s, abi);\n"
                        % (name, name, name))
                c.write("    MPI_Fint rp_err = MPI_SUCCESS;\n")
                c.write("    if (!rp_active()) {\n        real(%s);\n" % call_args(fp))
                c.write("        rpf_set_ierror(ierror, rp_err);\n        return;\n    }\n")
                c.write("\n".join(body(kind, name, fp)) + "\n")
                c.write("    rpf_set_ierror(ierror, rp_err);\n}\n")
            c.write("RP_EXPORT void %s_(%s)\n{\n    rpf_%s(RPF_F77, %s);\n}\n"
                    % (low, decl(fp), name, fargs))
            for alias in (low + "__", low, name.upper()):
                c.write("RP_EXPORT void %s(%s) __attribute__((alias(\"%s_\")));\n"
                        % (alias, decl(fp), low))
            c.write("RP_EXPORT void %s_f08_(%s)\n{\n    rpf_%s(RPF_F08, %s);\n}\n"
                    % (low, decl(fp), name, fargs))


if __name__ == "__main__":
    main()
