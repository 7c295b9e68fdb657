! mpi_wavefront_f.f90 - a pipelined 2-D wavefront in the style of NAS LU's
! SSOR sweeps (issue 13), in Fortran with `use mpi`.  The ranks form a
! PX x PY grid (MPI_Dims_create); every sweep pushes NB blocks from the
! north-west corner to the south-east one (blocking MPI_Recv from the west
! and north neighbours, work, blocking MPI_Send to the east and south ones:
! the lower triangular solve), then NB blocks back (the upper solve, the
! other way round).  No collective over MPI_COMM_WORLD between the barrier
! after MPI_Init and the final MPI_Allreduce, so the whole solve is ONE
! phase in which the critical path crosses ranks about 2*NB*SWEEPS*(PX+PY-2)
! times.  NB is the message-rate knob (messages per sweep per neighbour),
! BLOCK_US the work per block.
!
!     mpi_wavefront_f [SWEEPS [NB [BLOCK_US]]]      (default 20 50 200)
!
! Work: a small relaxation on the rank's tile (real code the samples locate)
! plus wall-clock sleep (rp_test_sleep, tests/mpi/rp_test_sleep.c), so the
! proxy holds its timing when ranks oversubscribe the cores.  The upper
! block takes 1.5 * BLOCK_US.  Prints a checksum that does not depend on
! timing.
program wavefront_f
    use mpi
    implicit none
    integer, parameter :: n = 16
    integer :: ierr, me, np, dims(2), px, py, ix, iy, west, east, north, south
    integer :: sweeps, nb, s, b, st(MPI_STATUS_SIZE)
    double precision :: us, tile(n, n), edge(n), sum, tot
    character(len=32) :: arg
    external :: rp_test_sleep

    sweeps = 20
    nb = 50
    us = 200d0
    if (command_argument_count() >= 1) then
        call get_command_argument(1, arg)
        read (arg, *) sweeps
    end if
    if (command_argument_count() >= 2) then
        call get_command_argument(2, arg)
        read (arg, *) nb
    end if
    if (command_argument_count() >= 3) then
        call get_command_argument(3, arg)
        read (arg, *) us
    end if

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    dims = 0
    call MPI_Dims_create(np, 2, dims, ierr)
    px = dims(1)
    py = dims(2)
    ix = mod(me, px)
    iy = me / px
    west = -1
    east = -1
    north = -1
    south = -1
    if (ix > 0) west = me - 1
    if (ix < px - 1) east = me + 1
    if (iy > 0) north = me - px
    if (iy < py - 1) south = me + px
    tile = dble(me + 1)
    edge = 0d0
    sum = 0d0

    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    do s = 1, sweeps
        do b = 1, nb                    ! lower sweep: north-west -> south-east
            if (west >= 0) call MPI_Recv(edge, n, MPI_DOUBLE_PRECISION, west, b, &
                                         MPI_COMM_WORLD, st, ierr)
            if (north >= 0) call MPI_Recv(edge, n, MPI_DOUBLE_PRECISION, north, b, &
                                          MPI_COMM_WORLD, st, ierr)
            call lower_block(tile, edge, us)
            if (east >= 0) call MPI_Send(tile(:, n), n, MPI_DOUBLE_PRECISION, east, b, &
                                         MPI_COMM_WORLD, ierr)
            if (south >= 0) call MPI_Send(tile(n, :), n, MPI_DOUBLE_PRECISION, south, b, &
                                          MPI_COMM_WORLD, ierr)
        end do
        do b = 1, nb                    ! upper sweep: south-east -> north-west
            if (east >= 0) call MPI_Recv(edge, n, MPI_DOUBLE_PRECISION, east, b, &
                                         MPI_COMM_WORLD, st, ierr)
            if (south >= 0) call MPI_Recv(edge, n, MPI_DOUBLE_PRECISION, south, b, &
                                          MPI_COMM_WORLD, st, ierr)
            call upper_block(tile, edge, us)
            if (west >= 0) call MPI_Send(tile(:, 1), n, MPI_DOUBLE_PRECISION, west, b, &
                                         MPI_COMM_WORLD, ierr)
            if (north >= 0) call MPI_Send(tile(1, :), n, MPI_DOUBLE_PRECISION, north, b, &
                                          MPI_COMM_WORLD, ierr)
        end do
        sum = sum + tile(n / 2, n / 2)
    end do
    tot = 0d0
    call MPI_Allreduce(sum, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (me == 0) write (*, '(a,i0,a,i0,a,i0,a,i0,a,es14.6)') 'wavefront_f np=', np, &
        ' grid=', px, 'x', py, ' sweeps=', sweeps, ' checksum=', tot
    call MPI_Finalize(ierr)

contains

    ! Lower triangular block: relax the tile from the north-west, then the
    ! block's wall-clock work.
    subroutine lower_block(a, e, t_us)
        double precision, intent(inout) :: a(n, n)
        double precision, intent(in) :: e(n), t_us
        integer :: i, j
        do j = 2, n
            do i = 2, n
                a(i, j) = 0.25d0 * (a(i - 1, j) + a(i, j - 1) + 2d0 * a(i, j)) + 1d-3 * e(i)
            end do
        end do
        call rp_test_sleep(t_us * 1d-6)
    end subroutine lower_block

    ! Upper triangular block: the same from the south-east, 1.5x the work.
    subroutine upper_block(a, e, t_us)
        double precision, intent(inout) :: a(n, n)
        double precision, intent(in) :: e(n), t_us
        integer :: i, j
        do j = n - 1, 1, -1
            do i = n - 1, 1, -1
                a(i, j) = 0.25d0 * (a(i + 1, j) + a(i, j + 1) + 2d0 * a(i, j)) - 1d-3 * e(i)
            end do
        end do
        call rp_test_sleep(1.5d0 * t_us * 1d-6)
    end subroutine upper_block

end program wavefront_f
