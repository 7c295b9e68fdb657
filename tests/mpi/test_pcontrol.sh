#!/bin/bash
# MPI_Pcontrol(0) pauses sampling attribution, MPI_Pcontrol(1) resumes it
# (tests/mpi/mpi_pcontrol.c): with the pause, paused_work() - twice the time
# of open_work() - has no sampled time in the whole-program hotspots or on
# any path, open_work() does, the samples_paused counter counts the paused
# samples (about paused time / RP_PERIOD) and is warned about, and the path
# costs still include the paused time (it is on the paths under <unknown>).
# The control run without the calls must show paused_work() on top, so the
# test fails if pausing does nothing.  Two ranks, no oversubscription.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
RP_TIMING=1
. "$(dirname "$0")/mpirun.sh"
P=$RP_TESTS_BIN/mpi_pcontrol
rp_require "$P" "$RP_LIB" "$RP_BINDIR/rp-report"
ITERS=20 T=0.01

pc_case() { # pause|nopause
    local what="pcontrol $1 np=2" out
    rp_prof 2 shm RP_PERIOD=1000 -- "$P" "$1" $ITERS $T
    rp_expect_report "$what" || return
    if out=$("$PYTHON" - "$RP_JSON" "$1" $ITERS $T <<'PY' 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
mode, iters, t = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
bad = []
def fn_time(lst, name):
    return sum(h["seconds"] for h in lst if h["function"] == name)
hot = j["hotspots"]
paused, opened = fn_time(hot, "paused_work"), fn_time(hot, "open_work")
on_paths = [fn_time(p.get("top", []), "paused_work") for p in j["paths"]]
ctr = j.get("counters", {}).get("samples_paused", 0)
cost = j["paths"][0]["cost_seconds"]
print(f"paused_work {paused:.4f} s, open_work {opened:.4f} s, on paths {on_paths}, "
      f"samples_paused {ctr}, critical path {cost:.4f} s")
# every rank does 3 t per iteration, at least
if cost < 0.8 * iters * 3 * t:
    bad.append(f"critical path {cost:.4f} s < 80% of {iters * 3 * t:.3f} s: paused time lost from the path cost")
if opened < 0.5 * iters * t:
    bad.append(f"open_work has {opened:.4f} s, expected about {2 * iters * t:.3f} s (2 ranks)")
if mode == "pause":
    if paused != 0 or any(on_paths):
        bad.append("paused_work has sampled time although it ran paused")
    # 2 ranks x iters x 2t of paused time at a 1 ms period
    want = 2 * iters * 2 * t / 1e-3
    if not 0.5 * want <= ctr <= 1.5 * want:
        bad.append(f"samples_paused = {ctr}, expected about {want:.0f}")
    if not any(w.get("counter") == "samples_paused" for w in j.get("warnings", [])):
        bad.append("no warning about samples_paused")
else:
    if not (paused > 1.3 * opened):
        bad.append(f"control: paused_work ({paused:.4f} s) is not above open_work ({opened:.4f} s)")
    if ctr:
        bad.append(f"control: samples_paused = {ctr} without MPI_Pcontrol")
for b in bad:
    print("CHECK FAILED: " + b)
sys.exit(1 if bad else 0)
PY
    ); then
        echo "$out" | sed 's/^/  /'
        rp_pass "$what"
    else
        rp_fail "$what: $out"
    fi
}

rp_timed pc_case pause
rp_timed pc_case nopause
rp_finish
