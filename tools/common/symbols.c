/* symbols.c - symbolisation with libdwfl (one Dwfl session per module,
 * reported at bias 0 so Dwfl addresses are the module's ELF vaddrs). */
#define _GNU_SOURCE
#include "common/symbols.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* From libstdc++ (C++ ABI); linked with -lstdc++. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

struct rp_symmod {
    char   *path;
    char   *base;        /* basename, for fallback names */
    Dwfl   *dwfl;
    Dwfl_Module *mod;    /* NULL: fallback names only */
};

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

/* gfortran names module procedures __<module>_MOD_<name>; show them the
 * way a Fortran programmer writes them, module::name.  NULL if not one. */
static char *fortran_demangle(const char *name)
{
    if (strncmp(name, "__", 2) != 0)
        return NULL;
    const char *mod = strstr(name + 2, "_MOD_");
    if (!mod || mod == name + 2 || !mod[5])
        return NULL;
    size_t mlen = (size_t)(mod - (name + 2)), plen = strlen(mod + 5);
    char *d = malloc(mlen + 2 + plen + 1);
    if (!d)
        return NULL;
    memcpy(d, name + 2, mlen);
    memcpy(d + mlen, "::", 2);
    memcpy(d + mlen + 2, mod + 5, plen + 1);
    return d;
}

char *rp_demangle(const char *name)
{
    if (name && name[0] == '_' && name[1] == 'Z') {
        int status = -1;
        char *d = __cxa_demangle(name, NULL, NULL, &status);
        if (d && status == 0)
            return d;
        free(d);
    }
    if (name) {
        char *f = fortran_demangle(name);
        if (f)
            return f;
    }
    return strdup(name ? name : "");
}

/* Has this module been warned about already?  A report opens a module
 * once per merge, and some views merge several subsets of the ranks (the
 * POP factors' per-rank profiles): one warning per module and process.
 * Beyond the table's size, warnings repeat rather than vanish. */
static int warned_before(const char *path)
{
    static char *seen[64];
    static uint32_t n_seen;
    for (uint32_t i = 0; i < n_seen; i++)
        if (!strcmp(seen[i], path))
            return 1;
    if (n_seen < sizeof seen / sizeof *seen && (seen[n_seen] = strdup(path)) != NULL)
        n_seen++;
    return 0;
}

static void warn_module(const char *prog, const char *path, const char *why)
{
    if (warned_before(path))
        return;
    fprintf(stderr, "%s: warning: %s: %s; its frames are shown as %s+0xOFFSET\n", prog, path,
            why, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
}

static void hex(char *out, const uint8_t *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = 0;
}

rp_symmod *symmod_open(const char *prog, const char *path, const uint8_t *build_id,
                       uint32_t build_id_len)
{
    rp_symmod *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->path = strdup(path);
    const char *slash = strrchr(path, '/');
    m->base = strdup(slash ? slash + 1 : path);
    if (!m->path || !m->base) {
        symmod_close(m);
        return NULL;
    }
    if (path[0] != '/')
        return m;   /* "linux-vdso.so.1" and friends: no file, nothing to warn about */
    if (access(path, R_OK) != 0) {
        warn_module(prog, path, strerror(errno));
        return m;
    }
    m->dwfl = dwfl_begin(&offline_callbacks);
    if (!m->dwfl) {
        warn_module(prog, path, dwfl_errmsg(-1));
        return m;
    }
    dwfl_report_begin(m->dwfl);
    /* add_p_vaddr: bias = base = 0 even when the first PT_LOAD is not at 0 */
    Dwfl_Module *mod = dwfl_report_elf(m->dwfl, m->base, path, -1, 0, true);
    dwfl_report_end(m->dwfl, NULL, NULL);
    if (!mod) {
        warn_module(prog, path, dwfl_errmsg(-1));
        return m;
    }
    if (build_id_len > 0) {
        const unsigned char *bits;
        GElf_Addr vaddr;
        int n = dwfl_module_build_id(mod, &bits, &vaddr);
        if (n != (int)build_id_len || memcmp(bits, build_id, build_id_len) != 0) {
            char want[129], got[129] = "none";
            hex(want, build_id, build_id_len);
            if (n > 0 && n <= 64)
                hex(got, bits, (uint32_t)n);
            char why[320];
            snprintf(why, sizeof why, "build-id %s differs from the recorded %s (file changed?)",
                     got, want);
            warn_module(prog, path, why);
            return m;
        }
    }
    m->mod = mod;
    /* The user's own code without DWARF (stripped, or built without -g)
     * still resolves to functions where symbols remain, else to
     * module+offset: say so once, so the missing file:line is explained.
     * System libraries without debug info are normal: no warning. */
    Dwarf_Addr dbias;
    int system_lib = strncmp(path, "/lib/", 5) == 0 || strncmp(path, "/lib64/", 7) == 0 ||
                     strncmp(path, "/usr/lib", 8) == 0;
    if (!system_lib && !dwfl_module_getdwarf(mod, &dbias) && !warned_before(path))
        fprintf(stderr, "%s: warning: %s: no debug information (stripped, or built without -g); "
                        "no file:line for its frames%s\n", prog, path,
                dwfl_module_getsymtab(mod) > 1 ? " (functions without a symbol appear as module+0xOFFSET)" : ", which appear as module+0xOFFSET");
    return m;
}

void symmod_close(rp_symmod *m)
{
    if (!m)
        return;
    if (m->dwfl)
        dwfl_end(m->dwfl);
    free(m->path);
    free(m->base);
    free(m);
}

void symframe_free(rp_symframe *f, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        free(f[i].func);
        free(f[i].file);
        f[i].func = f[i].file = NULL;
    }
}

/* Name of a subprogram or inlined-subroutine DIE: the linkage name
 * (demangled: qualified, with parameter types) or else DW_AT_name, both
 * looked up through abstract_origin / specification. */
static char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute a;
    const char *s = NULL;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
        s = dwarf_formstring(&a);
    if (!s && dwarf_attr_integrate(die, DW_AT_name, &a))
        s = dwarf_formstring(&a);
    return s ? rp_demangle(s) : NULL;
}

static int set_frame(rp_symframe *f, char *func, const char *file, uint32_t line)
{
    f->func = func;
    f->file = strdup(file ? file : "");
    f->line = line;
    if (!f->func || !f->file) {
        free(f->func);
        free(f->file);
        f->func = f->file = NULL;
        return -1;
    }
    return 0;
}

/* 1 if `addr` lies inside a sequence of the CU's line table: the last row at
 * or before it must not be an end_sequence row (the address just past a
 * sequence's code).  Without this check an address beyond the CU's code
 * (e.g. _start, linked from crt1.o, right after main's CU) inherits the
 * CU's last line: "_start (CoMD.c:264)".  libdw sorts the rows by address. */
static int line_covers(Dwarf_Die *cudie, Dwarf_Addr addr)
{
    Dwarf_Lines *lines;
    size_t n;
    if (!cudie || dwarf_getsrclines(cudie, &lines, &n) != 0 || n == 0)
        return 0;
    size_t lo = 0, hi = n;   /* first row with address > addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        Dwarf_Addr a = 0;
        dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
        if (a <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;           /* before the first row */
    Dwarf_Addr at = 0;
    dwarf_lineaddr(dwarf_onesrcline(lines, lo - 1), &at);
    /* rows at that address: one that is not an end_sequence starts code there */
    for (size_t i = lo; i-- > 0;) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a = 0;
        bool end = false;
        dwarf_lineaddr(l, &a);
        if (a != at)
            break;
        if (dwarf_lineendsequence(l, &end) == 0 && !end)
            return 1;
    }
    return 0;
}

uint32_t symmod_lookup(rp_symmod *m, uint64_t offset, int callsite, rp_symframe *out,
                       uint32_t max, int *dwarf_lines, int *fallback)
{
    *dwarf_lines = 0;
    *fallback = 0;
    if (max == 0)
        return 0;
    if (!m->mod) {
        char buf[600];
        snprintf(buf, sizeof buf, "%s+0x%llx", m->base, (unsigned long long)offset);
        *fallback = 1;
        return set_frame(&out[0], strdup(buf), "", 0) == 0 ? 1 : 0;
    }
    Dwarf_Addr addr = offset - (callsite && offset > 0 ? 1 : 0);

    /* Innermost source position from the line table. */
    const char *file = NULL;
    int line = 0;
    Dwfl_Line *dl = dwfl_module_getsrc(m->mod, addr);
    if (dl) {
        file = dwfl_lineinfo(dl, NULL, &line, NULL, NULL, NULL);
        *dwarf_lines = file != NULL;
    }

    /* Walk the scopes innermost first: each inlined_subroutine is a frame
     * whose position is the current one, and whose DW_AT_call_file/line
     * becomes the position in the next frame out. */
    rp_symframe tmp[RP_SYM_MAX_INLINE];
    uint32_t n = 0;
    Dwarf_Addr bias = 0;
    Dwarf_Die *cudie = dwfl_module_addrdie(m->mod, addr, &bias);
    if (file && !line_covers(cudie, addr - bias)) {
        file = NULL;        /* past the end of a sequence: no line */
        line = 0;
        *dwarf_lines = 0;
    }
    Dwarf_Die *scopes = NULL;
    int nscopes = cudie ? dwarf_getscopes(cudie, addr - bias, &scopes) : 0;
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (cudie && dwarf_getsrcfiles(cudie, &files, &nfiles) != 0)
        files = NULL;
    const char *cur_file = file;
    uint32_t cur_line = line > 0 ? (uint32_t)line : 0;
    int done = 0;
    for (int i = 0; i < nscopes && !done && n < RP_SYM_MAX_INLINE; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
            continue;
        char *name = die_name(&scopes[i]);
        if (!name && tag == DW_TAG_subprogram)
            break;   /* fall back to the ELF symbol below */
        if (!name)
            name = strdup("<inlined>");
        if (set_frame(&tmp[n], name, cur_file, cur_line) != 0)
            goto oom;
        n++;
        if (tag == DW_TAG_subprogram) {
            done = 1;
            break;
        }
        Dwarf_Attribute a;
        Dwarf_Word w;
        cur_file = NULL;
        cur_line = 0;
        if (files && dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &w) == 0)
            cur_file = dwarf_filesrc(files, w, NULL, NULL);
        if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &w) == 0)
            cur_line = (uint32_t)w;
    }
    free(scopes);

    if (!done) {
        /* No DWARF subprogram: the ELF symbol table names the function. */
        GElf_Off off;
        GElf_Sym sym;
        const char *s = dwfl_module_addrinfo(m->mod, addr, &off, &sym, NULL, NULL, NULL);
        char *name;
        if (s) {
            name = rp_demangle(s);
        } else {
            char buf[600];
            snprintf(buf, sizeof buf, "%s+0x%llx", m->base, (unsigned long long)offset);
            name = strdup(buf);
        }
        if (n == RP_SYM_MAX_INLINE) {
            symframe_free(&tmp[n - 1], 1);
            n--;
        }
        if (set_frame(&tmp[n], name, cur_file, cur_line) != 0)
            goto oom;
        n++;
    }
    /* Outermost first for the caller. */
    uint32_t keep = n < max ? n : max;
    for (uint32_t i = 0; i < keep; i++)
        out[i] = tmp[n - 1 - i];
    if (keep < n)
        symframe_free(tmp, n - keep);   /* drop the innermost ones */
    return keep;
oom:
    symframe_free(tmp, n);
    return 0;
}
