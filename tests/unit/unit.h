/* unit.h - minimal assertions for the pure-C unit tests (no MPI).
 * CHECK records a failure with file:line and carries on, so one run shows
 * every broken property; unit_done() turns the count into the exit status
 * (automake: 0 pass, 1 fail). */
#ifndef RP_UNIT_H
#define RP_UNIT_H

#include <inttypes.h>
#include <stdio.h>

static int unit_failures;  /* per test program; tests are single-threaded */
static int unit_checks;

#define CHECK(cond)                                                        \
    do {                                                                   \
        unit_checks++;                                                     \
        if (!(cond)) {                                                     \
            unit_failures++;                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
        }                                                                  \
    } while (0)

/* Integer equality with both values printed. */
#define CHECK_EQ(a, b)                                                     \
    do {                                                                   \
        long long unit_a_ = (long long)(a), unit_b_ = (long long)(b);      \
        unit_checks++;                                                     \
        if (unit_a_ != unit_b_) {                                          \
            unit_failures++;                                               \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", \
                    __FILE__, __LINE__, #a, #b, unit_a_, unit_b_);         \
        }                                                                  \
    } while (0)

static inline int unit_done(const char *name)
{
    fprintf(stderr, "%s: %d checks, %d failed\n", name, unit_checks,
            unit_failures);
    return unit_failures ? 1 : 0;
}

#endif
