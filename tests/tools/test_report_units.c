/* test_report_units.c - the report's small pure functions: readable names
 * (names.c: template arguments elided, file:line never cut) and the
 * precision helpers (precision.c: sample estimates, the 2-sigma noise
 * test) and the one hash index (idtab.c, through strtab.c: ids stable
 * across growth). */
#include <math.h>
#include <string.h>
#include "common/names.h"
#include "report/precision.h"
#include "common/strtab.h"
#include "core/show.h"
#include "report/ranks.h"
#include "unit.h"

static void elide(const char *in, const char *want)
{
    char out[512];
    names_elide_templates(out, sizeof out, in);
    if (strcmp(out, want) != 0)
        fprintf(stderr, "elide(%s) = %s, want %s\n", in, out, want);
    CHECK(strcmp(out, want) == 0);
}

/* 20 000 names: every one gets a new id in order, re-interning finds it
 * after the index grew ten times, and "" stays id 0. */
static void strtab_growth(void)
{
    rp_strtab t;
    CHECK(strtab_init(&t) == 0);
    char name[32];
    for (uint32_t i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "f%u", i);
        CHECK(strtab_intern(&t, name) == i + 1);
    }
    for (uint32_t i = 0; i < 20000; i += 7) {
        snprintf(name, sizeof name, "f%u", i);
        CHECK(strtab_intern(&t, name) == i + 1);
    }
    CHECK(strtab_intern(&t, "") == 0);
    CHECK(t.n == 20001);
    CHECK(t.index.nslots >= 2 * t.n);
    strtab_free(&t);
}

/* report_oversubscribed's hosts as it found them before sorting: every row
 * against the rows before it (quadratic), the reference its account must
 * match byte for byte. */
static int oversub_ref(const rp_rankrow *r, uint32_t n, char *buf, size_t len)
{
    uint32_t hosts_over = 0, ranks_over = 0, hosts = 0, worst = UINT32_MAX, worst_n = 0;
    uint32_t desched = 0;
    for (uint32_t i = 0; i < n; i++) {
        desched += r[i].has_cpu && (double)r[i].cpu_ns < RP_RANK_CPU_LOW * (double)r[i].task_ns;
        uint32_t first = i;
        for (uint32_t j = 0; j < i; j++)
            if (!strncmp(r[j].host, r[i].host, sizeof r[i].host)) {
                first = j;
                break;
            }
        if (first != i)
            continue;
        hosts++;
        uint32_t on = 0, cpus = 0;
        for (uint32_t j = i; j < n; j++)
            if (!strncmp(r[j].host, r[i].host, sizeof r[i].host)) {
                on++;
                if (r[j].host_cpus > cpus)
                    cpus = r[j].host_cpus;
            }
        if (cpus && on > cpus) {
            hosts_over++;
            ranks_over += on;
            if (worst == UINT32_MAX || (double)on / cpus > (double)worst_n / r[worst].host_cpus) {
                worst = i;
                worst_n = on;
            }
        }
    }
    if (!hosts_over && !desched)
        return 0;
    size_t w = 0;
    char host[RP_SHOW_MIN];
    if (hosts_over) {
        uint32_t cpus = 0;
        for (uint32_t j = 0; j < n; j++)
            if (!strncmp(r[j].host, r[worst].host, sizeof r[worst].host) && r[j].host_cpus > cpus)
                cpus = r[j].host_cpus;
        char h[sizeof r[worst].host + 1];
        snprintf(h, sizeof h, "%.*s", (int)sizeof r[worst].host, r[worst].host);
        rp_show(host, sizeof host, h);
        if (hosts == 1)
            w += (size_t)snprintf(buf + w, len - w, "%u ranks on %u CPU%s of host %s", worst_n,
                                  cpus, cpus == 1 ? "" : "s", host);
        else
            w += (size_t)snprintf(buf + w, len - w, "%u of %u hosts have more ranks than CPUs "
                                  "(%u ranks on them; worst: %u ranks on %u CPU%s of host %s)",
                                  hosts_over, hosts, ranks_over, worst_n, cpus,
                                  cpus == 1 ? "" : "s", host);
    }
    if (desched && w < len)
        w += (size_t)snprintf(buf + w, len - w, "%s%u of %u rank%s had less CPU time than "
                              "%.0f%% of %s task time", w ? "; " : "", desched, n,
                              n == 1 ? "" : "s", 100.0 * RP_RANK_CPU_LOW,
                              desched == 1 ? "its" : "their");
    if (w < len)
        snprintf(buf + w, len - w, ": ranks waited for a CPU, so task times, path costs "
                 "and imbalance include that waiting, and a polling MPI's waits took CPU "
                 "from the ranks computing (the critical path's share of wall is not what "
                 "a core per rank would give); the per-rank CPU column shows each rank");
    return 1;
}

/* Random rows: a few hosts in any order, CPU counts that differ between a
 * host's rows (0: not recorded), some ranks descheduled. */
static void oversubscribed(void)
{
    uint64_t x = 88172645463325252ull;
    for (int t = 0; t < 400; t++) {
        rp_rankrow r[48];
        uint32_t n = 1 + (uint32_t)(t % 48);
        for (uint32_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            memset(&r[i], 0, sizeof r[i]);
            r[i].rank = i;
            snprintf(r[i].host, sizeof r[i].host, "node%u", (unsigned)(x % (1 + t % 7)));
            r[i].host_cpus = (uint32_t)(x >> 8) % 5;
            r[i].has_cpu = (x >> 16) % 3 != 0;
            r[i].task_ns = 1000;
            r[i].cpu_ns = (x >> 20) % 4 ? 900 : 100;
        }
        char a[1024], b[1024];
        int ra = report_oversubscribed(r, n, a, sizeof a);
        int rb = oversub_ref(r, n, b, sizeof b);
        CHECK(ra == rb);
        CHECK(!ra || strcmp(a, b) == 0);
    }
}

int main(void)
{
    strtab_growth();
    oversubscribed();
    elide("foo", "foo");
    elide("<unknown>", "<unknown>");   /* pseudo-frames are not templates */
    elide("std::vector<double, std::allocator<double> >::push_back(double const&)",
          "std::vector<>::push_back(double const&)");
    elide("void kern<3, Foo<int> >(Foo<int>*)", "void kern<>(Foo<>*)");
    elide("operator<<(std::ostream&, int)", "operator<<(std::ostream&, int)");
    elide("A::operator<(A const&)", "A::operator<(A const&)");
    elide("A::operator->()", "A::operator->()");
    elide("f<a->b>(int)", "f<>(int)");

    char out[512];
    names_label(out, sizeof out, "kernels::heavy(double)", "/src/dir/mpi_hotspot_cxx.cc", 28, 0);
    CHECK(strcmp(out, "kernels::heavy(double) (mpi_hotspot_cxx.cc:28)") == 0);
    /* a long templated name: the location survives any width >= its length + 12 */
    const char *longname = "Kokkos::Impl::ParallelFor<ideal_gas_functor<Kokkos::View<double**>, "
                           "Kokkos::View<double**> >, Kokkos::RangePolicy<> >::execute() const";
    for (size_t w = 30; w <= 60; w++) {
        names_label(out, sizeof out, longname, "ideal_gas.cpp", 123, w);
        size_t n = strlen(out);
        /* below location + 12 the name still gets cut, to 12 characters
         * (miniFE: a 190-character name pushed the hotspot table apart) */
        CHECK(w < 32 ? n <= 12 + 20 : n <= w);
        CHECK(n > 20 && strcmp(out + n - 20, " (ideal_gas.cpp:123)") == 0);
        CHECK(strchr(out, '<') == NULL || strstr(out, "<>") != NULL);
    }
    names_label(out, sizeof out, "f", "", 0, 10);
    CHECK(strcmp(out, "f") == 0);
    names_label(out, sizeof out, "f", "/a/b.c", 0, 0);
    CHECK(strcmp(out, "f (b.c)") == 0);

    /* precision: estimates and the noise test */
    CHECK(fabs(precision_samples(1e6, 250000000) - 250.0) < 1e-9);
    CHECK(precision_samples(0, 5) == 0.0);
    /* 74 samples at 50 % vs 46 %: 2 sigma is 2*sqrt(50^2/74 + 46^2/74) ~ 15.8: noise */
    CHECK(precision_within_noise(50, 74, 46, 74));
    /* the same difference from 100 000 samples each: real */
    CHECK(!precision_within_noise(50, 1e5, 46, 1e5));
    /* exact zeros on both sides: no noise, a difference of 0 is not "within" */
    CHECK(!precision_within_noise(0, 0, 0, 0));
    CHECK(!precision_within_noise(10, 0, 0, 0));
    return unit_done("test_report_units");
}
