! Conformance program for MPI_Abort through the Fortran bindings
! (tests/conform/test_conform_f.sh): every rank passes a barrier, then the last rank
! aborts with error code 7 while the others wait for a message that never
! comes.  Built with `use mpi` (conform_abort_f90) and `use mpi_f08`
! (-DRP_F08, conform_abort_f08).  The job must end (not hang) with a
! non-zero exit status, with and without the profiler.
program conform_abort
#ifdef RP_F08
    use mpi_f08
    implicit none
    type(MPI_Status) :: st
#else
    use mpi
    implicit none
    integer :: st(MPI_STATUS_SIZE)
#endif
    integer :: ierr, me, np, x

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    if (me == 0) write (*, '(A,I0)') 'abort np=', np
    flush (6)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (me == np - 1) then
        call MPI_Abort(MPI_COMM_WORLD, 7, ierr)
    else
        call MPI_Recv(x, 1, MPI_INTEGER, np - 1, 1, MPI_COMM_WORLD, st, ierr)
    end if
    call MPI_Finalize(ierr)
end program conform_abort
