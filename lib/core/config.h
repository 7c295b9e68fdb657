/* config.h - the one reader of the RP_* environment variables
 * (doc/environment.md).  Pure C: the runtime, the sampler's thread wrapper
 * and the tests all read settings through it. */
#ifndef RP_CONFIG_H
#define RP_CONFIG_H

#include "core/state.h"

#define RP_DEFAULT_K        5u
#define RP_DEFAULT_SUMMARY  32u
#define RP_DEFAULT_PHASE_BATCH 16u
#define RP_MAX_PHASE_BATCH  64u
#define RP_MAX_SUMMARY      1024u
#define RP_DEFAULT_PERIOD   5000u     /* us: 200 Hz */
#define RP_DEFAULT_BUFFER   16384u
#define RP_DEFAULT_EAGER    4040u     /* Open MPI vader eager payload */
/* RP_PHASE_K's default: 4 (k - 1) + 1 paths, so the k report levels are
 * levels of the wide set too (doc/accuracy.md) */
#define RP_PHASE_K_MULT     4u

/* RP_PHASE_K's default for k paths (at most RP_MAX_K): the one the report's
 * stated errors were measured with (tools/report/model.c). */
uint32_t config_phase_k_default(uint32_t k);

/* Fill cfg from the environment.  Invalid values fall back to defaults; a
 * warning naming the variable and its accepted range is printed when
 * `verbose` (rank 0 only, so a job prints each once). */
void config_load(rp_config *cfg, int verbose);

#define RP_DEFAULT_CHECKPOINT_S 10u
#define RP_MAX_CHECKPOINT_S     31536000u   /* a year */
/* RP_JOBFILE: one job file (job.rpj) instead of a file per rank from this
 * many ranks on (doc/environment.md says why 256). */
#define RP_DEFAULT_JOBFILE      256u
/* RP_JOBFILE_IO: how the job file is written.  SMPI's MPI-IO simulates
 * storage and writes no bytes, so a build for SMPI gathers instead. */
typedef enum rp_jobfile_io { RP_JOBFILE_MPIIO = 0, RP_JOBFILE_GATHER = 1 } rp_jobfile_io;
#ifdef RP_SMPI
#define RP_DEFAULT_JOBFILE_IO   RP_JOBFILE_GATHER
#else
#define RP_DEFAULT_JOBFILE_IO   RP_JOBFILE_MPIIO
#endif

/* Before MPI_Init (pthread_create may come first): will worker threads be
 * sampled?  The same variables as config_load, read quietly (config_load
 * warns about bad values at MPI_Init; here they only must not turn
 * sampling off): RP_THREADS != 0, RP_PERIOD != 0 and RP_MODE prof. */
int  config_threads_wanted(void);

/* Parse an unsigned decimal in [lo, hi]; 0 on success.  Exposed for tests. */
int config_parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out);

#endif
