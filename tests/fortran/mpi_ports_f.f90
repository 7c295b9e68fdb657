! Ports from Fortran with `use mpi` (tests/mpi/test_onesided.sh, where the MPI
! can open ports): even ranks MPI_Comm_accept, odd ranks MPI_Comm_connect
! on world rank 0's port (string arguments: hidden lengths through the
! generated entry points), a message and an allreduce across, then
! MPI_Comm_disconnect.  Rank 0 prints every rank's results.
program portsf
    use mpi
    implicit none
    character(len=MPI_MAX_PORT_NAME) :: port
    integer :: ierr, me, np, half, inter, color, lme, rnp, v, got, s, red
    integer :: st(MPI_STATUS_SIZE)
    integer, allocatable :: all(:)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    got = -1
    red = -1
    rnp = 0
    if (np >= 2) then
        color = mod(me, 2)
        call MPI_Comm_split(MPI_COMM_WORLD, color, me, half, ierr)
        port = ' '
        if (me == 0) call MPI_Open_port(MPI_INFO_NULL, port, ierr)
        call MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
        if (color == 0) then
            call MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, inter, ierr)
        else
            call MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, inter, ierr)
        end if
        call MPI_Comm_rank(inter, lme, ierr)
        call MPI_Comm_remote_size(inter, rnp, ierr)
        v = 10 * me
        if (lme < rnp) call MPI_Sendrecv(v, 1, MPI_INTEGER, lme, 5, got, 1, MPI_INTEGER, lme, &
                                         5, inter, st, ierr)
        s = me + 1
        call MPI_Allreduce(s, red, 1, MPI_INTEGER, MPI_SUM, inter, ierr)
        call MPI_Comm_disconnect(inter, ierr)
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        if (me == 0) call MPI_Close_port(port, ierr)
        call MPI_Comm_free(half, ierr)
    end if
    allocate(all(3 * np))
    call MPI_Gather([rnp, got, red], 3, MPI_INTEGER, all, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (me == 0) write (*, '(a,*(1x,i0))') 'ports:', all
    call MPI_Finalize(ierr)
end program portsf
