! Conformance program for the Fortran bindings (tests/conform/test_conform.sh):
! calls every function of lib/mpi/mpi_functions.def except MPI_Abort (see
! tests/conform_abort.f90) and prints what MPI semantics alone decide
! (received data, reductions, status source/tag/count, communicator sizes
! and ranks, flags), never anything that depends on timing.  Built three
! ways from this one source (tests/conform/conform.am):
!   conform_f90   `use mpi`         MPI_Init, ierror always passed
!   conform_fh    `include 'mpif.h'` (-DRP_MPIFH)  MPI_Init_thread
!   conform_f08   `use mpi_f08`     (-DRP_F08)     MPI_Init_thread, ierror
!                 omitted in almost every call (NULL ierror in the entry point)
! Each rank keeps its lines; rank 0 prints them in rank order at the end.
! Any rank count >= 1 (one rank: self-sends; intercommunicators need 2).
#ifdef RP_F08
#define COMM_T type(MPI_Comm)
#define REQ_T type(MPI_Request)
#define MSG_T type(MPI_Message)
#define FILE_T type(MPI_File)
#define DT_T type(MPI_Datatype)
#define GRP_T type(MPI_Group)
#define STATUS_T(x) type(MPI_Status) :: x
#define STATUSES_T(x, n) type(MPI_Status) :: x(n)
#define SRC(s) s%MPI_SOURCE
#define TAG(s) s%MPI_TAG
#define SRCI(s, i) s(i)%MPI_SOURCE
#define TAGI(s, i) s(i)%MPI_TAG
#define STI(s, i) s(i)
#define IE
#define IE0
#else
#define COMM_T integer
#define REQ_T integer
#define MSG_T integer
#define FILE_T integer
#define DT_T integer
#define GRP_T integer
#define STATUS_T(x) integer :: x(MPI_STATUS_SIZE)
#define STATUSES_T(x, n) integer :: x(MPI_STATUS_SIZE, n)
#define SRC(s) s(MPI_SOURCE)
#define TAG(s) s(MPI_TAG)
#define SRCI(s, i) s(MPI_SOURCE, i)
#define TAGI(s, i) s(MPI_TAG, i)
#define STI(s, i) s(:, i)
#define IE , ierr
#define IE0 ierr
#endif
program conform
#ifdef RP_F08
    use mpi_f08
    implicit none
#elif defined(RP_MPIFH)
    implicit none
    include 'mpif.h'
#else
    use mpi
    implicit none
#endif
    integer, parameter :: MAXREC = 600, NL = 24
    character(len=NL) :: rname(MAXREC)
    integer :: rval(MAXREC), nrec
    integer :: ierr, me, np, left, right, provided
    integer :: bsbuf(4000), afree
    ! reached only through MPI_BOTTOM and absolute addresses (bottom)
    integer, volatile :: bot(3), bots(2), botr(2)
    COMM_T :: world

    nrec = 0
#if defined(RP_F08) || defined(RP_MPIFH)
    call MPI_Init_thread(MPI_THREAD_FUNNELED, provided IE)
    call rec('init_thread', merge(1, 0, provided >= MPI_THREAD_FUNNELED))
#else
    call MPI_Init(ierr)
    provided = 0
#endif
    world = MPI_COMM_WORLD
    call MPI_Comm_rank(world, me, ierr)
    call MPI_Comm_size(world, np, ierr)
    left = mod(me - 1 + np, np)
    right = mod(me + 1, np)
    call MPI_Buffer_attach(bsbuf, 4 * size(bsbuf), ierr)

    call p2p()
    call bottom()
    call waits()
    call colls(world, 'w')
    call nbcs(world, 'w')
    call comms()
    call io()

    call flush_out()
    call MPI_Finalize(IE0)

contains

    subroutine rec(name, v)
        character(len=*), intent(in) :: name
        integer, intent(in) :: v
        if (nrec >= MAXREC) call fail('too many records')
        nrec = nrec + 1
        rname(nrec) = name
        rval(nrec) = v
    end subroutine rec

    integer function hsh(a, n)
        integer, intent(in) :: n, a(*)
        integer :: i
        hsh = 17
        do i = 1, n
            hsh = mod(hsh * 31 + a(i) + 1000, 1000003)
        end do
    end function hsh

    subroutine fail(what)
        character(len=*), intent(in) :: what
        write (0, *) 'CHECK FAILED: ', what
        call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    end subroutine fail

    subroutine check_rc(what)
        character(len=*), intent(in) :: what
        if (ierr /= MPI_SUCCESS) call fail(what)
    end subroutine check_rc

    ! rank 0 prints every rank's records, in rank order
    subroutine flush_out()
        integer :: r, n
        STATUS_T(st)
        if (me /= 0) then
            call MPI_Send(nrec, 1, MPI_INTEGER, 0, 900, world IE)
            call MPI_Send(rname, NL * nrec, MPI_CHARACTER, 0, 901, world IE)
            call MPI_Send(rval, nrec, MPI_INTEGER, 0, 902, world IE)
            return
        end if
        call print_recs(0, nrec)
        do r = 1, np - 1
            call MPI_Recv(n, 1, MPI_INTEGER, r, 900, world, st IE)
            call MPI_Recv(rname, NL * n, MPI_CHARACTER, r, 901, world, st IE)
            call MPI_Recv(rval, n, MPI_INTEGER, r, 902, world, MPI_STATUS_IGNORE IE)
            call print_recs(r, n)
        end do
    end subroutine flush_out

    subroutine print_recs(r, n)
        integer, intent(in) :: r, n
        integer :: i
        do i = 1, n
            write (*, '(A,I0,1X,A,1X,I0)') 'r', r, trim(rname(i)), rval(i)
        end do
    end subroutine print_recs

    subroutine rec_st(what, st)
        character(len=*), intent(in) :: what
        STATUS_T(st)
        integer :: cnt
        call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
        call rec(what // '.src', SRC(st))
        call rec(what // '.tag', TAG(st))
        call rec(what // '.cnt', cnt)
    end subroutine rec_st

    ! ---- point-to-point: every send mode, probes, persistent, cancel, free
    subroutine p2p()
        integer :: a, i, it, pl, pr
        integer, asynchronous :: b(4), c(8), s(8)
        REQ_T :: rq, rq2, rqs(8)
        MSG_T :: msg
        STATUS_T(st)
        STATUSES_T(sts, 8)
        logical :: flag

        ! blocking ring, even ranks send first (a standard send may wait for
        ! its receive); one rank talks to MPI_PROC_NULL instead of itself
        a = 100 * me + 1
        b(1) = -7
        pl = left
        pr = right
        if (np == 1) then
            pl = MPI_PROC_NULL
            pr = MPI_PROC_NULL
        end if
        if (mod(me, 2) == 0) call MPI_Send(a, 1, MPI_INTEGER, pr, 1, world IE)
        call MPI_Recv(b, 4, MPI_INTEGER, pl, 1, world, st IE)
        if (mod(me, 2) == 1) call MPI_Send(a, 1, MPI_INTEGER, pr, 1, world IE)
        call rec('recv', b(1))
        call rec_st('recv', st)

        call MPI_Irecv(b, 1, MPI_INTEGER, MPI_ANY_SOURCE, 2, world, rq IE)
        call MPI_Ssend(a + 1, 1, MPI_INTEGER, right, 2, world IE)
        call MPI_Wait(rq, st IE)
        call rec('ssend', b(1))
        call rec_st('ssend', st)

        ! MPI_Pcontrol has no ierror argument in any Fortran binding
        call MPI_Pcontrol(0)
        call MPI_Pcontrol(1)
        call MPI_Bsend(a + 2, 1, MPI_INTEGER, right, 3, world IE)
        call MPI_Recv(b, 1, MPI_INTEGER, left, 3, world, MPI_STATUS_IGNORE IE)
        call rec('bsend', b(1))

        call MPI_Irecv(b, 1, MPI_INTEGER, left, 4, world, rq IE)
        call MPI_Barrier(world IE)
        call MPI_Rsend(a + 3, 1, MPI_INTEGER, right, 4, world IE)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        call rec('rsend', b(1))

        do i = 1, 4
            s(i) = a + 10 * i
            call MPI_Irecv(c(i), 1, MPI_INTEGER, MPI_ANY_SOURCE, 4 + i, world, rqs(i) IE)
        end do
        call MPI_Barrier(world IE)
        call MPI_Isend(s(1), 1, MPI_INTEGER, right, 5, world, rqs(5) IE)
        call MPI_Issend(s(2), 1, MPI_INTEGER, right, 6, world, rqs(6) IE)
        call MPI_Ibsend(s(3), 1, MPI_INTEGER, right, 7, world, rqs(7) IE)
        call MPI_Irsend(s(4), 1, MPI_INTEGER, right, 8, world, rqs(8) IE)
        call MPI_Waitall(8, rqs, sts IE)
        do i = 1, 4
            call rec('isend*', c(i))
            call rec('isend*.src', SRCI(sts, i))
            call rec('isend*.tag', TAGI(sts, i))
        end do

        call MPI_Sendrecv(a + 5, 1, MPI_INTEGER, right, 9, b, 2, MPI_INTEGER, left, 9, &
                          world, st IE)
        call rec('sendrecv', b(1))
        call rec_st('sendrecv', st)
        b(1) = a + 6
        call MPI_Sendrecv_replace(b, 1, MPI_INTEGER, right, 10, MPI_ANY_SOURCE, 10, &
                                  world, st IE)
        call rec('sendrecv_replace', b(1))
        call rec_st('replace', st)

        s(1:2) = [a + 7, a + 8]
        call MPI_Isend(s, 2, MPI_INTEGER, right, 11, world, rq IE)
        call MPI_Probe(MPI_ANY_SOURCE, 11, world, st IE)
        call rec_st('probe', st)
        call MPI_Iprobe(left, 11, world, flag, st IE)
        call rec('iprobe.flag', merge(1, 0, flag))
        call rec_st('iprobe', st)
        call MPI_Recv(b, 2, MPI_INTEGER, SRC(st), 11, world, MPI_STATUS_IGNORE IE)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        call rec('probe.data', hsh(b, 2))

        ! matched probes: Mprobe + Mrecv, an Improbe loop + Imrecv + Wait
        s(1:2) = [a + 9, a + 10]
        call MPI_Isend(s, 2, MPI_INTEGER, right, 31, world, rq IE)
        call MPI_Mprobe(MPI_ANY_SOURCE, 31, world, msg, st IE)
        call rec_st('mprobe', st)
        call MPI_Mrecv(b, 2, MPI_INTEGER, msg, st IE)
        call rec_st('mrecv', st)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        call rec('mrecv.data', hsh(b, 2))
        s(3:4) = [a + 11, a + 12]
        call MPI_Isend(s(3), 2, MPI_INTEGER, right, 32, world, rq IE)
        flag = .false.
        do while (.not. flag)
            call MPI_Improbe(left, MPI_ANY_TAG, world, flag, msg, st IE)
        end do
        call rec_st('improbe', st)
        call MPI_Imrecv(b, 2, MPI_INTEGER, msg, rq2 IE)
        call MPI_Wait(rq2, st IE)
        call rec_st('imrecv', st)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        call rec('imrecv.data', hsh(b, 2))

        ! persistent requests: 4 receives, one send of each mode, twice
        do i = 1, 4
            call MPI_Recv_init(c(i), 1, MPI_INTEGER, left, 11 + i, world, rqs(i) IE)
        end do
        call MPI_Send_init(s(1), 1, MPI_INTEGER, right, 12, world, rqs(5) IE)
        call MPI_Ssend_init(s(2), 1, MPI_INTEGER, right, 13, world, rqs(6) IE)
        call MPI_Bsend_init(s(3), 1, MPI_INTEGER, right, 14, world, rqs(7) IE)
        call MPI_Rsend_init(s(4), 1, MPI_INTEGER, right, 15, world, rqs(8) IE)
        do it = 1, 2
            do i = 1, 4
                s(i) = 1000 * it + 10 * me + i
            end do
            call MPI_Startall(4, rqs, ierr)
            call MPI_Barrier(world IE)
            do i = 5, 8
                call MPI_Start(rqs(i) IE)
            end do
            call MPI_Waitall(8, rqs, MPI_STATUSES_IGNORE IE)
            call rec('persistent', hsh(c, 4))
        end do
        do i = 1, 8
            call MPI_Request_free(rqs(i) IE)
        end do

        ! a receive that is never matched, cancelled
        call MPI_Irecv(b, 1, MPI_INTEGER, left, 16, world, rq IE)
        call MPI_Cancel(rq IE)
        call MPI_Wait(rq, st IE)
        call MPI_Test_cancelled(st, flag, ierr)
        call rec('cancel', merge(1, 0, flag))

        ! a send request freed while active
        afree = a + 9
        call MPI_Isend(afree, 1, MPI_INTEGER, right, 17, world, rq IE)
        call MPI_Request_free(rq IE)
        call MPI_Recv(b, 1, MPI_INTEGER, left, 17, world, st IE)
        call rec('request_free', b(1))
        call rec_st('request_free', st)
        call MPI_Barrier(world IE)
    end subroutine p2p

    ! MPI_BOTTOM with derived types built from absolute addresses
    subroutine bottom()
        integer :: blen(1)
        integer(kind=MPI_ADDRESS_KIND) :: disp(1)
        DT_T :: ty(1), tb, ts, tr
        STATUS_T(st)

        ty(1) = MPI_INTEGER
        blen(1) = 3
        call MPI_Get_address(bot, disp(1), ierr)
        call MPI_Type_create_struct(1, blen, disp, ty, tb, ierr)
        blen(1) = 2
        call MPI_Get_address(bots, disp(1), ierr)
        call MPI_Type_create_struct(1, blen, disp, ty, ts, ierr)
        call MPI_Get_address(botr, disp(1), ierr)
        call MPI_Type_create_struct(1, blen, disp, ty, tr, ierr)
        call MPI_Type_commit(tb, ierr)
        call MPI_Type_commit(ts, ierr)
        call MPI_Type_commit(tr, ierr)
        bot = -1
        if (me == np - 1) bot = [4, 5, 6 + np]
        call MPI_Bcast(MPI_BOTTOM, 1, tb, np - 1, world IE)
        call rec('bottom.bcast', bot(1) + bot(2) + bot(3))
        bots = [me, 10 * me]
        botr = -1
        call MPI_Sendrecv(MPI_BOTTOM, 1, ts, right, 95, MPI_BOTTOM, 1, tr, left, 95, &
                          world, st IE)
        call rec('bottom.sendrecv', botr(1) + botr(2))
        call rec_st('bottom.sendrecv', st)
        call MPI_Type_free(tb, ierr)
        call MPI_Type_free(ts, ierr)
        call MPI_Type_free(tr, ierr)
    end subroutine bottom

    ! post n receives from src (left or MPI_ANY_SOURCE: only left sends these
    ! tags) with tags t0+1..t0+n, then the matching sends to right
    subroutine post(n, t0, src, c, rqs)
        integer, intent(in) :: n, t0, src
        integer, asynchronous :: c(*)
        integer :: i
        REQ_T :: rqs(*)
        integer, save :: sv(8)
        do i = 1, n
            c(i) = -1
            call MPI_Irecv(c(i), 1, MPI_INTEGER, src, t0 + i, world, rqs(i) IE)
        end do
        do i = n, 1, -1
            sv(i) = 1000 * me + t0 + i
            call MPI_Send(sv(i), 1, MPI_INTEGER, right, t0 + i, world IE)
        end do
    end subroutine post

    ! ---- the Wait/Test families (completion order never printed); wildcard
    ! receives completed with MPI_STATUS(ES)_IGNORE make the profiler supply
    ! its own statuses (it needs the source)
    subroutine waits()
        integer :: i, idx, outc, idxs(8), done, isum, tsum
        integer, asynchronous :: c(8)
        REQ_T :: rq, rqs(8)
        STATUS_T(st)
        STATUSES_T(sts, 8)
        logical :: flag

        call post(2, 20, MPI_ANY_SOURCE, c, rqs)
        isum = 0
        tsum = 0
        do i = 1, 2
            call MPI_Waitany(2, rqs, idx, st IE)
            isum = isum + idx
            tsum = tsum + TAG(st)
        end do
        call MPI_Waitany(2, rqs, idx, st IE)
        call rec('waitany', hsh(c, 2))
        call rec('waitany.idx', isum)
        call rec('waitany.tags', tsum)
        call rec('waitany.undef', merge(1, 0, idx == MPI_UNDEFINED))

        call post(3, 30, left, c, rqs)
        done = 0
        isum = 0
        tsum = 0
        do while (done < 3)
            call MPI_Waitsome(3, rqs, outc, idxs, sts IE)
            do i = 1, outc
                isum = isum + idxs(i)
                tsum = tsum + TAGI(sts, i)
            end do
            done = done + outc
        end do
        call rec('waitsome', hsh(c, 3))
        call rec('waitsome.idx', isum)
        call rec('waitsome.tags', tsum)

        call post(1, 40, MPI_ANY_SOURCE, c, rqs)
        rq = rqs(1)
        flag = .false.
        do while (.not. flag)
            call MPI_Test(rq, flag, st IE)
        end do
        call rec('test', c(1))
        call rec_st('test', st)

        call post(2, 50, left, c, rqs)
        flag = .false.
        do while (.not. flag)
            call MPI_Testall(2, rqs, flag, sts IE)
        end do
        call rec('testall', hsh(c, 2))
        call rec('testall.tags', TAGI(sts, 1) + TAGI(sts, 2))

        call post(2, 60, MPI_ANY_SOURCE, c, rqs)
        done = 0
        isum = 0
        do while (done < 2)
            call MPI_Testany(2, rqs, idx, flag, MPI_STATUS_IGNORE IE)
            if (flag .and. idx /= MPI_UNDEFINED) then
                done = done + 1
                isum = isum + idx
            end if
        end do
        call rec('testany', hsh(c, 2))
        call rec('testany.idx', isum)

        call post(3, 70, MPI_ANY_SOURCE, c, rqs)
        done = 0
        isum = 0
        do while (done < 3)
            call MPI_Testsome(3, rqs, outc, idxs, MPI_STATUSES_IGNORE IE)
            do i = 1, outc
                isum = isum + idxs(i)
            end do
            done = done + outc
        end do
        call rec('testsome', hsh(c, 3))
        call rec('testsome.idx', isum)
    end subroutine waits

    ! ---- blocking collectives on comm (n = size <= 8)
    subroutine colls(comm, nm)
        COMM_T :: comm
        character(len=*), intent(in) :: nm
        integer :: cme, cn, i, root, v, w, a(64), b(64), cnt(8), dsp(8), rc(8), rd(8)
        DT_T :: ty(8)

        call MPI_Comm_rank(comm, cme, ierr)
        call MPI_Comm_size(comm, cn, ierr)
        root = cn - 1
        call MPI_Barrier(comm IE)
        a(1:3) = -1
        if (cme == root) a(1:3) = [7, 8, 9 + cn]
        call MPI_Bcast(a, 3, MPI_INTEGER, root, comm IE)
        call rec(nm // '.bcast', hsh(a, 3))
        a(1:2) = [cme + 1, 2 * cme]
        b(1:2) = -1
        call MPI_Reduce(a, b, 2, MPI_INTEGER, MPI_SUM, 0, comm IE)
        if (cme == 0) call rec(nm // '.reduce', hsh(b, 2))
        v = mod(cme * 5, 7)
        if (cme == root) then
            call MPI_Reduce(MPI_IN_PLACE, v, 1, MPI_INTEGER, MPI_MAX, root, comm IE)
            call rec(nm // '.reduce_inplace', v)
        else
            call MPI_Reduce(v, w, 1, MPI_INTEGER, MPI_MAX, root, comm IE)
        end if
        v = cme + 1
        call MPI_Allreduce(v, w, 1, MPI_INTEGER, MPI_PROD, comm IE)
        call rec(nm // '.allreduce', w)
        v = mod(cme * 3 + 2, 5)
        call MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INTEGER, MPI_MIN, comm IE)
        call rec(nm // '.allreduce_inplace', v)
        v = 10 * cme + 3
        call MPI_Gather(v, 1, MPI_INTEGER, b, 1, MPI_INTEGER, root, comm IE)
        if (cme == root) call rec(nm // '.gather', hsh(b, cn))
        ! rank i contributes i+1 values
        do i = 1, cn
            cnt(i) = i
            dsp(i) = (i - 1) * i / 2
        end do
        do i = 1, cme + 1
            a(i) = 100 * cme + i
        end do
        call MPI_Gatherv(a, cme + 1, MPI_INTEGER, b, cnt, dsp, MPI_INTEGER, 0, comm IE)
        if (cme == 0) call rec(nm // '.gatherv', hsh(b, cn * (cn + 1) / 2))
        do i = 1, 64
            a(i) = 3 * i
        end do
        call MPI_Scatter(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, 0, comm IE)
        call rec(nm // '.scatter', hsh(b, 2))
        call MPI_Scatterv(a, cnt, dsp, MPI_INTEGER, b, cme + 1, MPI_INTEGER, root, comm IE)
        call rec(nm // '.scatterv', hsh(b, cme + 1))
        v = cme * cme
        call MPI_Allgather(v, 1, MPI_INTEGER, b, 1, MPI_INTEGER, comm IE)
        call rec(nm // '.allgather', hsh(b, cn))
        b(1:cn) = 0
        b(cme + 1) = cme + 40
        call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, 1, MPI_INTEGER, comm IE)
        call rec(nm // '.allgather_inplace', hsh(b, cn))
        do i = 1, cme + 1
            a(i) = 7 * cme + i
        end do
        call MPI_Allgatherv(a, cme + 1, MPI_INTEGER, b, cnt, dsp, MPI_INTEGER, comm IE)
        call rec(nm // '.allgatherv', hsh(b, cn * (cn + 1) / 2))
        do i = 1, cn
            a(i) = 100 * cme + i
        end do
        call MPI_Alltoall(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, comm IE)
        call rec(nm // '.alltoall', hsh(b, cn))
        ! send i+1 values to rank i; receive cme+1 from each
        do i = 1, cn
            rc(i) = cme + 1
            rd(i) = (i - 1) * (cme + 1)
        end do
        do i = 1, cn * (cn + 1) / 2
            a(i) = 1000 * cme + i
        end do
        call MPI_Alltoallv(a, cnt, dsp, MPI_INTEGER, b, rc, rd, MPI_INTEGER, comm IE)
        call rec(nm // '.alltoallv', hsh(b, cn * (cme + 1)))
        do i = 1, cn
            ty(i) = MPI_INTEGER
            cnt(i) = 1
            dsp(i) = 4 * (i - 1)
            a(i) = 50 * cme + i
        end do
        call MPI_Alltoallw(a, cnt, dsp, ty, b, cnt, dsp, ty, comm IE)
        call rec(nm // '.alltoallw', hsh(b, cn))
        do i = 1, cn
            cnt(i) = mod(i, 2) + 1
        end do
        do i = 1, 2 * cn
            a(i) = cme + i
        end do
        call MPI_Reduce_scatter(a, b, cnt, MPI_INTEGER, MPI_SUM, comm IE)
        call rec(nm // '.reduce_scatter', hsh(b, cnt(cme + 1)))
        call MPI_Reduce_scatter_block(a, b, 2, MPI_INTEGER, MPI_MAX, comm IE)
        call rec(nm // '.reduce_scatter_block', hsh(b, 2))
        v = cme + 2
        call MPI_Scan(v, w, 1, MPI_INTEGER, MPI_SUM, comm IE)
        call rec(nm // '.scan', w)
        w = -1
        call MPI_Exscan(v, w, 1, MPI_INTEGER, MPI_SUM, comm IE)
        if (cme > 0) call rec(nm // '.exscan', w)
    end subroutine colls

    ! ---- non-blocking collectives on comm, completed by Wait/Waitall
    subroutine nbcs(comm, nm)
        COMM_T :: comm
        character(len=*), intent(in) :: nm
        integer :: cme, cn, i, root
        integer, asynchronous :: v(4), w(4), a(64), b(64), e(64), f(64), g(64)
        integer :: cnt(8), dsp(8), rc(8), rd(8), ic(8)
        REQ_T :: rq(8)
        DT_T :: ty(8)

        call MPI_Comm_rank(comm, cme, ierr)
        call MPI_Comm_size(comm, cn, ierr)
        root = cn - 1
        do i = 1, cn
            cnt(i) = i
            dsp(i) = (i - 1) * i / 2
            rc(i) = cme + 1
            rd(i) = (i - 1) * (cme + 1)
            ty(i) = MPI_INTEGER
            ic(i) = 1
        end do
        call MPI_Ibarrier(comm, rq(1) IE)
        call MPI_Wait(rq(1), MPI_STATUS_IGNORE IE)
        w(1:2) = -1
        if (cme == root) w(1:2) = [5, 6 + cn]
        call MPI_Ibcast(w, 2, MPI_INTEGER, root, comm, rq(1) IE)
        v(1) = cme + 3
        call MPI_Ireduce(v, v(2), 1, MPI_INTEGER, MPI_SUM, 0, comm, rq(2) IE)
        v(3) = 2 * cme + 1
        call MPI_Iallreduce(v(3), v(4), 1, MPI_INTEGER, MPI_MAX, comm, rq(3) IE)
        call MPI_Waitall(3, rq, MPI_STATUSES_IGNORE IE)
        call rec(nm // '.ibcast', hsh(w, 2))
        if (cme == 0) call rec(nm // '.ireduce', v(2))
        call rec(nm // '.iallreduce', v(4))

        do i = 1, 64
            a(i) = 11 * cme + i
        end do
        call MPI_Igather(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, 0, comm, rq(1) IE)
        call MPI_Igatherv(a, cme + 1, MPI_INTEGER, e, cnt, dsp, MPI_INTEGER, root, comm, &
                          rq(2) IE)
        call MPI_Iscatter(a, 2, MPI_INTEGER, f, 2, MPI_INTEGER, root, comm, rq(3) IE)
        call MPI_Iscatterv(a, cnt, dsp, MPI_INTEGER, g, cme + 1, MPI_INTEGER, 0, comm, &
                           rq(4) IE)
        call MPI_Waitall(4, rq, MPI_STATUSES_IGNORE IE)
        if (cme == 0) call rec(nm // '.igather', hsh(b, cn))
        if (cme == root) call rec(nm // '.igatherv', hsh(e, cn * (cn + 1) / 2))
        call rec(nm // '.iscatter', hsh(f, 2))
        call rec(nm // '.iscatterv', hsh(g, cme + 1))

        call MPI_Iallgather(a, 1, MPI_INTEGER, b, 1, MPI_INTEGER, comm, rq(1) IE)
        call MPI_Iallgatherv(a, cme + 1, MPI_INTEGER, e, cnt, dsp, MPI_INTEGER, comm, &
                             rq(2) IE)
        call MPI_Ialltoall(a, 1, MPI_INTEGER, f, 1, MPI_INTEGER, comm, rq(3) IE)
        call MPI_Ialltoallv(a, cnt, dsp, MPI_INTEGER, g, rc, rd, MPI_INTEGER, comm, rq(4) IE)
        call MPI_Waitall(4, rq, MPI_STATUSES_IGNORE IE)
        call rec(nm // '.iallgather', hsh(b, cn))
        call rec(nm // '.iallgatherv', hsh(e, cn * (cn + 1) / 2))
        call rec(nm // '.ialltoall', hsh(f, cn))
        call rec(nm // '.ialltoallv', hsh(g, cn * (cme + 1)))

        do i = 1, cn
            dsp(i) = 4 * (i - 1)
        end do
        call MPI_Ialltoallw(a, ic, dsp, ty, b, ic, dsp, ty, comm, rq(1) IE)
        do i = 1, cn
            cnt(i) = mod(i, 2) + 1
        end do
        call MPI_Ireduce_scatter(a, e, cnt, MPI_INTEGER, MPI_SUM, comm, rq(2) IE)
        call MPI_Ireduce_scatter_block(a, f, 2, MPI_INTEGER, MPI_MIN, comm, rq(3) IE)
        v(1) = cme + 2
        call MPI_Iscan(v, v(2), 1, MPI_INTEGER, MPI_PROD, comm, rq(4) IE)
        v(4) = -1
        call MPI_Iexscan(v, v(4), 1, MPI_INTEGER, MPI_SUM, comm, rq(5) IE)
        call MPI_Waitall(5, rq, MPI_STATUSES_IGNORE IE)
        call rec(nm // '.ialltoallw', hsh(b, cn))
        call rec(nm // '.ireduce_scatter', hsh(e, cnt(cme + 1)))
        call rec(nm // '.ireduce_scatter_block', hsh(f, 2))
        call rec(nm // '.iscan', v(2))
        if (cme > 0) call rec(nm // '.iexscan', v(4))
    end subroutine nbcs

    ! size, rank and a sum of world ranks over comm (an intercommunicator
    ! sums the remote group's)
    subroutine probe_comm(comm, nm)
        COMM_T :: comm
        character(len=*), intent(in) :: nm
        integer :: cme, cn, s
        call MPI_Comm_rank(comm, cme, ierr)
        call MPI_Comm_size(comm, cn, ierr)
        call MPI_Allreduce(me, s, 1, MPI_INTEGER, MPI_SUM, comm IE)
        call rec(nm // '.size', cn)
        call rec(nm // '.rank', cme)
        call rec(nm // '.sum', s)
    end subroutine probe_comm

    ! ---- every communicator constructor of the table, and Comm_free
    ! MPI-IO passes through the profiler, MPI_File_open counted: a collective
    ! write of each rank's value at its offset of one file (deleted on
    ! close), and a collective read of the right neighbour's
    subroutine io()
        ! every MPI-IO call of the table: integer slot i of rank r at byte
        ! 4 * (i * np + r); each rank reads back its right neighbour's slots
        FILE_T :: fh
        REQ_T :: rq
        integer :: t, i, w(10), r, tot, ordt, shr
        integer(kind=MPI_OFFSET_KIND) :: off, zero, sz
        character(len=64) :: fname
        call system_clock(t)
        call MPI_Bcast(t, 1, MPI_INTEGER, 0, world IE)
        write (fname, '(a,i0,a)') '/tmp/rp_conform_f_', t, '.dat'
        call MPI_File_open(world, trim(fname), ior(MPI_MODE_CREATE, MPI_MODE_RDWR), &
                           MPI_INFO_NULL, fh IE)
        zero = 0
        sz = 4 * 32 * np
        call MPI_File_set_size(fh, zero IE)
        call MPI_File_preallocate(fh, sz IE)
        call MPI_File_set_info(fh, MPI_INFO_NULL IE)
        call MPI_File_set_atomicity(fh, .false. IE)
        call MPI_File_set_view(fh, zero, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL IE)
        do i = 1, 10
            w(i) = 100 * i + me
        end do
        off = 4 * (0 * np + me)
        call MPI_File_write_at(fh, off, w(1), 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
        off = 4 * (1 * np + me)
        call MPI_File_write_at_all(fh, off, w(2), 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
        off = 4 * (2 * np + me)
        call MPI_File_iwrite_at(fh, off, w(3), 1, MPI_INTEGER, rq IE)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        off = 4 * (3 * np + me)
        call MPI_File_iwrite_at_all(fh, off, w(4), 1, MPI_INTEGER, rq IE)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        off = 4 * (4 * np + me)
        call MPI_File_write_at_all_begin(fh, off, w(5), 1, MPI_INTEGER IE)
        call MPI_File_write_at_all_end(fh, w(5), MPI_STATUS_IGNORE IE)
        off = 4 * (5 * np + me)
        call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
        call MPI_File_write(fh, w(6), 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
        off = 4 * (6 * np + me)
        call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
        call MPI_File_write_all(fh, w(7), 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
        off = 4 * (7 * np + me)
        call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
        call MPI_File_iwrite(fh, w(8), 1, MPI_INTEGER, rq IE)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        off = 4 * (8 * np + me)
        call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
        call MPI_File_iwrite_all(fh, w(9), 1, MPI_INTEGER, rq IE)
        call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        off = 4 * (9 * np + me)
        call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
        call MPI_File_write_all_begin(fh, w(10), 1, MPI_INTEGER IE)
        call MPI_File_write_all_end(fh, w(10), MPI_STATUS_IGNORE IE)
        call MPI_File_sync(fh IE)
        call MPI_Barrier(world IE)
        call MPI_File_sync(fh IE)
        tot = 0
        do i = 0, 9
            off = 4 * (i * np + right)
            r = -1
            select case (i)
            case (0)
                call MPI_File_read_at(fh, off, r, 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
            case (1)
                call MPI_File_read_at_all(fh, off, r, 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
            case (2)
                call MPI_File_iread_at(fh, off, r, 1, MPI_INTEGER, rq IE)
                call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
            case (3)
                call MPI_File_iread_at_all(fh, off, r, 1, MPI_INTEGER, rq IE)
                call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
            case (4)
                call MPI_File_read_at_all_begin(fh, off, r, 1, MPI_INTEGER IE)
                call MPI_File_read_at_all_end(fh, r, MPI_STATUS_IGNORE IE)
            case (5)
                call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
                call MPI_File_read(fh, r, 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
            case (6)
                call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
                call MPI_File_read_all(fh, r, 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
            case (7)
                call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
                call MPI_File_iread(fh, r, 1, MPI_INTEGER, rq IE)
                call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
            case (8)
                call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
                call MPI_File_iread_all(fh, r, 1, MPI_INTEGER, rq IE)
                call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
            case default
                call MPI_File_seek(fh, off, MPI_SEEK_SET IE)
                call MPI_File_read_all_begin(fh, r, 1, MPI_INTEGER IE)
                call MPI_File_read_all_end(fh, r, MPI_STATUS_IGNORE IE)
            end select
            tot = tot + r
        end do
        call rec('file', tot)
        ! the shared file pointer, past the slots
        off = 4 * 10 * np
        call MPI_File_seek_shared(fh, off, MPI_SEEK_SET IE)
        call MPI_File_write_ordered(fh, w(1), 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
        call MPI_File_write_ordered_begin(fh, w(2), 1, MPI_INTEGER IE)
        call MPI_File_write_ordered_end(fh, w(2), MPI_STATUS_IGNORE IE)
        call MPI_Barrier(world IE)
        if (me == 0) then
            call MPI_File_write_shared(fh, w(3), 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
            call MPI_File_iwrite_shared(fh, w(4), 1, MPI_INTEGER, rq IE)
            call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
        end if
        call MPI_File_sync(fh IE)
        call MPI_File_seek_shared(fh, off, MPI_SEEK_SET IE)
        call MPI_File_read_ordered(fh, r, 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
        ordt = r
        call MPI_File_read_ordered_begin(fh, r, 1, MPI_INTEGER IE)
        call MPI_File_read_ordered_end(fh, r, MPI_STATUS_IGNORE IE)
        ordt = ordt + r
        call MPI_Barrier(world IE)
        shr = 0
        if (me == 0) then
            call MPI_File_read_shared(fh, r, 1, MPI_INTEGER, MPI_STATUS_IGNORE IE)
            shr = r
            call MPI_File_iread_shared(fh, r, 1, MPI_INTEGER, rq IE)
            call MPI_Wait(rq, MPI_STATUS_IGNORE IE)
            shr = shr + r
        end if
        call rec('file.ordered', ordt)
        call rec('file.shared', shr)
        call MPI_File_close(fh IE)
        call MPI_Barrier(world IE)
        if (me == 0) call MPI_File_delete(trim(fname), MPI_INFO_NULL IE)
    end subroutine io

    subroutine comms()
        COMM_T :: d, di, sp, sh, cr, cg, ca, c2, cs, gr, dg, da, ic, mg
        GRP_T :: wg, eg
        integer :: i, ne, ie, io, ev(8), dims(2), idx(8), edg(8), src(1), dst(1), deg(1), wt(1)
        logical :: per(2), remain(2)

        call MPI_Comm_dup(world, d IE)
        call colls(d, 'dup')
        call nbcs(d, 'dup')
        call MPI_Comm_dup_with_info(world, MPI_INFO_NULL, di IE)
        call probe_comm(di, 'dup_with_info')
        call MPI_Comm_split(world, mod(me, 2), np - me, sp IE)
        call colls(sp, 'split')
        call MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, sh IE)
        call probe_comm(sh, 'split_type')

        ne = (np + 1) / 2
        do i = 1, ne
            ev(i) = 2 * (i - 1)
        end do
        call MPI_Comm_group(world, wg, ierr)
        call MPI_Group_incl(wg, ne, ev, eg, ierr)
        call MPI_Comm_create(world, eg, cr IE)
        if (mod(me, 2) == 0) then
            call probe_comm(cr, 'create')
            call MPI_Comm_create_group(world, eg, 5, cg IE)
            call probe_comm(cg, 'create_group')
            call MPI_Comm_free(cg IE)
            call MPI_Comm_free(cr IE)
        else
            call rec('create.null', merge(1, 0, cr == MPI_COMM_NULL))
        end if
        call MPI_Group_free(eg, ierr)
        call MPI_Group_free(wg, ierr)

        per(1) = .true.
        call MPI_Cart_create(world, 1, [np], per, .false., ca IE)
        call probe_comm(ca, 'cart1')
        dims = 0
        call MPI_Dims_create(np, 2, dims, ierr)
        per = [.true., .false.]
        call MPI_Cart_create(world, 2, dims, per, .false., c2 IE)
        remain = [.false., .true.]
        call MPI_Cart_sub(c2, remain, cs IE)
        call probe_comm(cs, 'cart_sub')

        ! graph: a directed ring (no edges with one rank)
        do i = 1, np
            idx(i) = merge(i, 0, np > 1)
            edg(i) = mod(i, np)
        end do
        call MPI_Graph_create(world, np, idx, edg, .false., gr IE)
        call probe_comm(gr, 'graph')
        src(1) = me
        deg(1) = 1
        dst(1) = right
        wt(1) = 1
        call MPI_Dist_graph_create(world, 1, src, deg, dst, wt, MPI_INFO_NULL, .false., &
                                   dg IE)
        call probe_comm(dg, 'dist_graph')
        src(1) = left
        call MPI_Dist_graph_create_adjacent(world, 1, src, MPI_UNWEIGHTED, 1, dst, &
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, .false., da IE)
        call probe_comm(da, 'dist_graph_adjacent')

        if (np >= 2) then
            ! evens and odds; each group's leader (rank 0 of sp) is its
            ! highest world rank (split key np - me)
            ie = 2 * ((np - 1) / 2)
            io = 2 * (np / 2) - 1
            call MPI_Intercomm_create(sp, 0, world, merge(io, ie, mod(me, 2) == 0), 77, ic IE)
            call probe_comm(ic, 'intercomm')
            call MPI_Intercomm_merge(ic, mod(me, 2) == 1, mg IE)
            call probe_comm(mg, 'merge')
            call MPI_Comm_free(mg IE)
            call MPI_Comm_free(ic IE)
        end if

        call MPI_Comm_free(da IE)
        call MPI_Comm_free(dg IE)
        call MPI_Comm_free(gr IE)
        call MPI_Comm_free(cs IE)
        call MPI_Comm_free(c2 IE)
        call MPI_Comm_free(ca IE)
        call MPI_Comm_free(sh IE)
        call MPI_Comm_free(sp IE)
        call MPI_Comm_free(di IE)
        call MPI_Comm_free(d IE)
        call rec('freed', merge(1, 0, d == MPI_COMM_NULL))
    end subroutine comms

end program conform
