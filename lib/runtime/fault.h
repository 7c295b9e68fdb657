/* fault.h - what the runtime saves when the job does not reach MPI_Finalize,
 * and how it stays out of the way of a hostile application
 * (doc/robustness.md).
 *
 *  - Checkpoints (RP_CHECKPOINT seconds, default 10, 0 = only at Finalize):
 *    at a phase end, if that long has passed since this rank last wrote its
 *    file, the rank file is rewritten (atomically) with every completed phase.
 *  - MPI_Abort: the calling rank writes its file, then calls PMPI_Abort.
 *  - SIGTERM / SIGINT: a handler that only removes a half-written temporary
 *    file (unlink is async-signal-safe) and then hands the signal to the
 *    previous disposition; what survives is the last checkpoint.
 *  - SIGPROF: `sigaction` and `signal` are interposed; a program that
 *    installs its own SIGPROF handler after MPI_Init gets SIGPROF to itself,
 *    our sampling stops (rank 0 warns once; counter sampling_lost_app_sigprof).
 */
#ifndef RP_FAULT_H
#define RP_FAULT_H

#include <stdint.h>

/* End of rp_start (profiling is on): read RP_CHECKPOINT, install the
 * SIGTERM/SIGINT clean-up handler, take over SIGPROF bookkeeping. */
void rp_fault_start(void);
/* End of rp_phase_end: write a checkpoint if one is due (not at Finalize). */
void rp_fault_phase_end(void);
/* Event entry of the main thread once rp_rt.ckpt_due_ns has passed: the
 * phase in progress has run RP_CHECKPOINT seconds without ending, so write
 * a partial rank file now (counters open_phase_ns / open_phase_cost_ns say
 * how much of the run the completed phases do not cover). */
void rp_fault_tick(int64_t now);
/* Write this rank's file now with the completed phases (MPI_Abort); the
 * reason is only for the warning line. */
void rp_fault_save(const char *why);

/* output.c <-> fault.c */
/* Set while output.c is inside rpfile_write: the temporary file's name, so
 * the SIGTERM handler can remove it.  path NULL = not writing. */
void rp_fault_writing(const char *final_path);

/* Counters fault.c keeps, written into the rank file by output.c. */
typedef struct rp_fault_counters {
    uint64_t checkpoints;          /* checkpoint writes so far */
    uint64_t checkpoint_failures;  /* checkpoint writes that failed */
} rp_fault_counters;
extern rp_fault_counters rp_fault_cnt;

#endif
