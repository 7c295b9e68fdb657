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

int main(void)
{
    strtab_growth();
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
