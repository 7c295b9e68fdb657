/* show.c - strings from outside, shown on one line (show.h). */
#include "core/show.h"

#include <string.h>

static const char hex[] = "0123456789abcdef";

/* The escaped form of byte c into e (up to 4 bytes); its length. */
static size_t esc(unsigned char c, int quote, char *e)
{
    const char *m = NULL;
    switch (c) {
    case '\n': m = "\\n"; break;
    case '\t': m = "\\t"; break;
    case '\r': m = "\\r"; break;
    case '\\':
        if (quote != 1)              /* literal inside '...' */
            m = "\\\\";
        break;
    case '\'':
        if (quote == 2)
            m = "\\'";               /* inside $'...' */
        else if (quote == 1)
            m = "'\\''";             /* inside '...': close, quoted ', reopen */
        break;
    default: break;
    }
    if (m) {
        size_t l = strlen(m);
        memcpy(e, m, l);
        return l;
    }
    if (c < 0x20 || c == 0x7f) {
        e[0] = '\\';
        e[1] = 'x';
        e[2] = hex[c >> 4];
        e[3] = hex[c & 15];
        return 4;
    }
    e[0] = (char)c;
    return 1;
}

/* Decimal of v into d; its length. */
static size_t dec(size_t v, char *d)
{
    char t[24];
    size_t n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while (v /= 10);
    for (size_t i = 0; i < n; i++)
        d[i] = t[n - 1 - i];
    return n;
}

static void put(char *out, size_t n, size_t *w, const char *s, size_t l)
{
    if (*w + l < n) {
        memcpy(out + *w, s, l);
        *w += l;
    }
}

/* Escaped s between open and close; the middle elided when it does not fit. */
static const char *show(char *out, size_t n, const char *s, int quote, const char *open,
                        const char *close)
{
    size_t len = strlen(s), full = 0, w = 0;
    char e[8];
    if (n < RP_SHOW_MIN) {   /* callers give RP_SHOW_MIN at least */
        if (n)
            out[0] = '\0';
        return out;
    }
    for (size_t i = 0; i < len; i++)
        full += esc((unsigned char)s[i], quote, e);
    size_t frame = strlen(open) + strlen(close);
    put(out, n, &w, open, strlen(open));
    if (full + frame < n) {
        for (size_t i = 0; i < len; i++)
            put(out, n, &w, e, esc((unsigned char)s[i], quote, e));
        put(out, n, &w, close, strlen(close));
        out[w] = '\0';
        return out;
    }
    /* head ... tail, then " (N characters)" after the closing quote */
    char note[48];
    size_t nl = 0;
    memcpy(note, " (", 2);
    nl = 2 + dec(len, note + 2);
    memcpy(note + nl, " characters)", 12);
    nl += 12;
    size_t budget = n - 1 - frame - 3 - nl - 8;   /* 8: one escape's slack each side */
    size_t head = budget / 2, tail = budget - head, hb = 0, tb = 0, i = 0, j = len;
    while (i < len) {
        size_t l = esc((unsigned char)s[i], quote, e);
        if (hb + l > head)
            break;
        hb += l;
        i++;
    }
    while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)   /* not inside a UTF-8 character */
        hb -= esc((unsigned char)s[--i], quote, e);
    while (j > i) {
        size_t l = esc((unsigned char)s[j - 1], quote, e);
        if (tb + l > tail)
            break;
        tb += l;
        j--;
    }
    while (j < len && ((unsigned char)s[j] & 0xc0) == 0x80)
        j++;
    for (size_t k = 0; k < i; k++)
        put(out, n, &w, e, esc((unsigned char)s[k], quote, e));
    put(out, n, &w, "...", 3);
    for (size_t k = j; k < len; k++)
        put(out, n, &w, e, esc((unsigned char)s[k], quote, e));
    put(out, n, &w, close, strlen(close));
    put(out, n, &w, note, nl);
    out[w] = '\0';
    return out;
}

const char *rp_show(char *out, size_t n, const char *s)
{
    return show(out, n, s ? s : "(null)", 0, "", "");
}

const char *rp_show_arg(char *out, size_t n, const char *s)
{
    if (!s)
        s = "";
    int plain = *s != '\0' && *s != '~' && *s != '-', ctrl = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c < 0x20 || *c == 0x7f)
            ctrl = 1;
        else if (!(*c >= 0x80 || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                   (*c >= '0' && *c <= '9') || strchr("_./:=@%+,-", *c)))
            plain = 0;
    }
    if (ctrl)
        return show(out, n, s, 2, "$'", "'");
    if (plain)
        return show(out, n, s, 0, "", "");
    return show(out, n, s, 1, "'", "'");
}
