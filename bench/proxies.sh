# bench/proxies.sh - the HPCG- and LULESH-shaped proxy configurations
# (bench/apps/, issue 16), sourced by bench/cost.sh and bench/size.sh so
# both measure the same runs.
#
# proxy_conf CONFIG SCALE CAL -> "RANKS APP ARGS...": SCALE multiplies the
# iterations, CAL is `hpcg --calibrate`'s spin rate.
proxy_conf() {
    case $1 in
    hpcg2) echo "2 hpcg --n 16 --work-us 25 --cal $3 --iters $((4500 * $2))" ;;
    # the same at 8 ranks (z slabs), for a machine with 8 cores or more
    hpcg8) echo "8 hpcg --n 16 --work-us 25 --cal $3 --iters $((4500 * $2))" ;;
    lulesh8) echo "8 lulesh --work-us 2500 --sleep --iters $((300 * $2))" ;;
    lulesh2) echo "2 lulesh --work-us 300 --cal $3 --iters $((2000 * $2))" ;;
    # LULESH's own situation (issue 16): 8 computing ranks on 2 cores, so
    # ranks wait long inside MPI for descheduled partners
    lulesh8cpu) echo "8 lulesh --work-us 1500 --cal $3 --iters $((150 * $2))" ;;
    *) echo "unknown proxy configuration $1" >&2; return 1 ;;
    esac
}
