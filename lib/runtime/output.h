/* output.h - writing this rank's file (output.c): at MPI_Finalize, at a
 * checkpoint and on the way down after MPI_Abort or a fatal signal. */
#ifndef RP_OUTPUT_H
#define RP_OUTPUT_H

/* Write the rank file; final = 1 at MPI_Finalize, 0 for a checkpoint or an
 * abort (then the file says so: counter tail_lost = 1).  0 or -1. */
int output_write_rank(int final);

#endif
