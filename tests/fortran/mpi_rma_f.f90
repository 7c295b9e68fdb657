! One-sided communication and neighbourhood collectives from Fortran with
! `use mpi` (tests/mpi/test_onesided.sh): every function of the table's kinds
! win_new, win_free, win_fence, local, neighbor and nbc_neighbor and the
! window synchronisation events, with deterministic output (rank 0 prints
! every rank's results), identical with and without the profiler.
program rmaf
    use mpi
    use iso_c_binding
    implicit none
    integer, parameter :: NR = 24
    integer :: ierr, me, np, win, left, right, v, got, one, nv, cmp, old, i
    logical :: flag
    integer :: ring, grp, from, to, nres, acc, back
    integer(kind=MPI_ADDRESS_KIND) :: sz, disp, baseptr, addr
    integer(kind=MPI_ADDRESS_KIND), allocatable :: addrs(:)
    integer, volatile :: buf(4), cell
    integer, pointer :: wmem(:)
    integer :: res(NR), reqs(5), sb(2), rb(2), cnt(2), dsp(2), typs(2)
    integer(kind=MPI_ADDRESS_KIND) :: wdsp(2)
    integer, allocatable :: allres(:)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    left = mod(me + np - 1, np)
    right = mod(me + 1, np)
    res = -1
    nres = 0
    one = 1

    ! Fence epochs on Win_create
    buf = 0
    sz = 16
    call MPI_Win_create(buf, sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    v = 100 + me
    disp = 0
    call MPI_Put(v, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
    disp = 1
    call MPI_Accumulate(one, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = 0
    call MPI_Get(got, 1, MPI_INTEGER, left, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call put_res(buf(1))
    call put_res(got)
    call put_res(buf(2))
    call MPI_Win_free(win, ierr)

    ! Passive target on Win_allocate
    sz = 16
    call MPI_Win_allocate(sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
    call c_f_pointer(transfer(baseptr, c_null_ptr), wmem, [4])
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win, ierr)
    wmem = 0
    call MPI_Win_unlock(me, win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
    disp = 0
    call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
    call MPI_Win_flush(0, win, ierr)
    disp = 1
    call MPI_Get_accumulate(one, 1, MPI_INTEGER, acc, 1, MPI_INTEGER, 0, disp, 1, &
                            MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_flush_local(0, win, ierr)
    call MPI_Win_unlock(0, win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    nv = 7
    cmp = 0
    disp = 2
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
    call MPI_Compare_and_swap(nv, cmp, old, MPI_INTEGER, 0, disp, win, ierr)
    call MPI_Win_unlock(0, win, ierr)
    v = 1000 + me
    disp = 3
    call MPI_Win_lock_all(0, win, ierr)
    call MPI_Rput(v, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call MPI_Win_flush_all(win, ierr)
    call MPI_Rget(back, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, reqs(2), ierr)
    disp = 1
    call MPI_Raccumulate(one, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, MPI_SUM, win, &
                         reqs(3), ierr)
    call MPI_Waitall(2, reqs(2:3), MPI_STATUSES_IGNORE, ierr)
    call MPI_Win_flush_local_all(win, ierr)
    disp = 3
    call MPI_Rget_accumulate(one, 0, MPI_INTEGER, got, 1, MPI_INTEGER, right, disp, 1, &
                             MPI_INTEGER, MPI_NO_OP, win, reqs(4), ierr)
    flag = .false.
    do while (.not. flag)
        call MPI_Test(reqs(4), flag, MPI_STATUS_IGNORE, ierr)
    end do
    call MPI_Win_sync(win, ierr)
    call MPI_Win_unlock_all(win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win, ierr)
    do i = 1, 4
        call put_res(wmem(i))
    end do
    call MPI_Win_unlock(me, win, ierr)
    call put_res(back)
    call put_res(got)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_free(win, ierr)

    ! Win_allocate_shared over MPI_COMM_SELF (always one node)
    sz = 4
    call MPI_Win_allocate_shared(sz, 4, MPI_INFO_NULL, MPI_COMM_SELF, baseptr, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call MPI_Win_free(win, ierr)

    ! Win_create_dynamic with PSCW between ring neighbours
    cell = -1
    allocate(addrs(np))
    call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    sz = 4
    call MPI_Win_attach(win, cell, sz, ierr)
    call MPI_Get_address(cell, addr, ierr)
    call MPI_Allgather(addr, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD, ierr)
    call MPI_Comm_group(MPI_COMM_WORLD, grp, ierr)
    call MPI_Group_incl(grp, 1, [left], from, ierr)
    call MPI_Group_incl(grp, 1, [right], to, ierr)
    call MPI_Win_post(from, 0, win, ierr)
    call MPI_Win_start(to, 0, win, ierr)
    v = 300 + me
    call MPI_Put(v, 1, MPI_INTEGER, right, addrs(right + 1), 1, MPI_INTEGER, win, ierr)
    call MPI_Win_complete(win, ierr)
    call MPI_Win_wait(win, ierr)
    call put_res(cell)
    call MPI_Win_post(from, 0, win, ierr)
    call MPI_Win_start(to, 0, win, ierr)
    v = 310 + me
    call MPI_Put(v, 1, MPI_INTEGER, right, addrs(right + 1), 1, MPI_INTEGER, win, ierr)
    call MPI_Win_complete(win, ierr)
    flag = .false.
    do while (.not. flag)
        call MPI_Win_test(win, flag, ierr)
    end do
    call put_res(cell)
    call MPI_Group_free(from, ierr)
    call MPI_Group_free(to, ierr)
    call MPI_Group_free(grp, ierr)
    call MPI_Win_detach(win, cell, ierr)
    call MPI_Win_free(win, ierr)

    ! Neighbourhood collectives on a directed ring (in: left, out: right).
    ! Not a cartesian ring: Open MPI 4.1.4's Fortran Neighbor_alltoallw
    ! converts as many datatypes as the communicator has ranks, too few for
    ! a periodic ring of one rank (its two neighbours), even without rpprof.
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, [left], [1], 1, [right], [1], &
                                        MPI_INFO_NULL, .false., ring, ierr)
    sb = [10 * me, 10 * me + 1]
    cnt = 1
    dsp = [0, 1]
    wdsp = [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND]
    typs = MPI_INTEGER
    call MPI_Neighbor_allgather(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, ierr)
    call put_res(rb(1))
    call MPI_Neighbor_allgatherv(sb, 1, MPI_INTEGER, rb, cnt, dsp, MPI_INTEGER, ring, ierr)
    call put_res(rb(1))
    call MPI_Neighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, ierr)
    call put_res(rb(1))
    call MPI_Neighbor_alltoallv(sb, cnt, dsp, MPI_INTEGER, rb, cnt, dsp, MPI_INTEGER, ring, ierr)
    call put_res(rb(1))
    call MPI_Neighbor_alltoallw(sb, cnt, wdsp, typs, rb, cnt, wdsp, typs, ring, ierr)
    call put_res(rb(1))
    call MPI_Ineighbor_allgather(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call put_res(rb(1))
    call MPI_Ineighbor_allgatherv(sb, 1, MPI_INTEGER, rb, cnt, dsp, MPI_INTEGER, ring, &
                                  reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call put_res(rb(1))
    call MPI_Ineighbor_alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, ring, reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call put_res(rb(1))
    call MPI_Ineighbor_alltoallv(sb, cnt, dsp, MPI_INTEGER, rb, cnt, dsp, MPI_INTEGER, ring, &
                                 reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call put_res(rb(1))
    call MPI_Ineighbor_alltoallw(sb, cnt, wdsp, typs, rb, cnt, wdsp, typs, ring, reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call put_res(rb(1))
    call MPI_Comm_free(ring, ierr)

    allocate(allres(NR * np))
    call MPI_Gather(res, NR, MPI_INTEGER, allres, NR, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (me == 0) then
        do i = 0, np - 1
            write (*, '(a,i0,a,*(1x,i0))') 'rank ', i, ':', allres(i * NR + 1:i * NR + nres)
        end do
    end if
    call MPI_Finalize(ierr)

contains

    subroutine put_res(x)
        integer, intent(in) :: x
        nres = nres + 1
        res(nres) = x
    end subroutine put_res

end program rmaf
