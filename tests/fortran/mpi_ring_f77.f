C     Ring pipeline + allreduce, Fortran 77 with mpif.h: the same calls,
C     work and output as tests/fortran/mpi_ringar_c.c (see there), so that its
C     profile must match the C program's (tests/fortran/test_fortran.sh).
C     usage: mpi_ring_f77 [T_ms [NITER]]   (default 30 ms, 3)
      program ringf77
      implicit none
      include 'mpif.h'
      integer ierr, me, np, it, niter, token, isum, i
      integer left, right, sbuf(2), rbuf(2), x, y, v, r, rsum
      integer val, s7, req, reqs(4), st(MPI_STATUS_SIZE)
      integer psend, precv, psum, k, preq(2), cv(2), idx, creq(2), hs
      logical flag
      integer g(64)
      double precision tms, t
      character*32 arg

      tms = 30d0
      niter = 3
      if (command_argument_count() .ge. 1) then
         call get_command_argument(1, arg)
         read (arg, *) tms
      end if
      if (command_argument_count() .ge. 2) then
         call get_command_argument(2, arg)
         read (arg, *) niter
      end if
      t = tms / 1000d0

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
      call check(np .le. 64, 'np <= 64')
      token = 0

      do it = 1, niter
         if (me .eq. 0) then
            call rp_test_sleep(t)
            token = 1000 * it
            if (np .gt. 1) then
               call MPI_SEND(token, 1, MPI_INTEGER, 1, 7,
     &                       MPI_COMM_WORLD, ierr)
            end if
         else
            call MPI_RECV(token, 1, MPI_INTEGER, me - 1, 7,
     &                    MPI_COMM_WORLD, st, ierr)
            call check(st(MPI_SOURCE) .eq. me - 1 .and.
     &                 st(MPI_TAG) .eq. 7, 'recv status')
            token = token + me
            call rp_test_sleep(t)
            if (me .lt. np - 1) then
               call MPI_SEND(token, 1, MPI_INTEGER, me + 1, 7,
     &                       MPI_COMM_WORLD, ierr)
            end if
         end if
         call rp_test_sleep(t * me / np)
         call MPI_ALLREDUCE(token, isum, 1, MPI_INTEGER, MPI_SUM,
     &                      MPI_COMM_WORLD, ierr)
         if (me .eq. 0) then
            write (*, '(A,I0,A,I0,A,I0)') 'ring np=', np, ' iter=',
     &           it, ' sum=', isum
         end if
      end do

C     point-to-point
      left = mod(me - 1 + np, np)
      right = mod(me + 1, np)
      sbuf(1) = 100 * me + 1
      sbuf(2) = 100 * me + 2
      call MPI_IRECV(rbuf(1), 1, MPI_INTEGER, left, 11,
     &               MPI_COMM_WORLD, reqs(1), ierr)
      call MPI_IRECV(rbuf(2), 1, MPI_INTEGER, right, 12,
     &               MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_ISEND(sbuf(1), 1, MPI_INTEGER, right, 11,
     &               MPI_COMM_WORLD, reqs(3), ierr)
      call MPI_ISEND(sbuf(2), 1, MPI_INTEGER, left, 12,
     &               MPI_COMM_WORLD, reqs(4), ierr)
      call MPI_WAITALL(4, reqs, MPI_STATUSES_IGNORE, ierr)
      call check(rbuf(1) .eq. 100 * left + 1 .and.
     &           rbuf(2) .eq. 100 * right + 2, 'waitall data')
      x = -1
      call MPI_IRECV(x, 1, MPI_INTEGER, MPI_ANY_SOURCE, 13,
     &               MPI_COMM_WORLD, req, ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, right, 13, MPI_COMM_WORLD,
     &              ierr)
      call MPI_WAIT(req, st, ierr)
      call check(x .eq. left .and. st(MPI_SOURCE) .eq. left .and.
     &           st(MPI_TAG) .eq. 13, 'wildcard wait')
c     wildcard receives completed with the status sentinels
      x = -1
      call MPI_IRECV(x, 1, MPI_INTEGER, MPI_ANY_SOURCE, 15,
     &               MPI_COMM_WORLD, req, ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, right, 15, MPI_COMM_WORLD,
     &              ierr)
      call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
      call check(x .eq. left, 'wildcard wait, MPI_STATUS_IGNORE')
      call MPI_IRECV(rbuf(1), 1, MPI_INTEGER, MPI_ANY_SOURCE, 16,
     &               MPI_COMM_WORLD, reqs(1), ierr)
      call MPI_IRECV(rbuf(2), 1, MPI_INTEGER, MPI_ANY_SOURCE, 17,
     &               MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, right, 16, MPI_COMM_WORLD,
     &              ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, left, 17, MPI_COMM_WORLD,
     &              ierr)
      call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
      call check(rbuf(1) .eq. left .and. rbuf(2) .eq. right,
     &           'wildcard waitall, MPI_STATUSES_IGNORE')
      s7 = 7 * me
      y = -1
      call MPI_SENDRECV(s7, 1, MPI_INTEGER, right, 14, y, 1,
     &                  MPI_INTEGER, left, 14, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, ierr)
      call check(y .eq. 7 * left, 'sendrecv')

C     persistent requests: Startall twice, then Start one by one, then
C     Request_free (the Fortran layer's binding-neutral bodies)
      psum = 0
      precv = -1
      call MPI_RECV_INIT(precv, 1, MPI_INTEGER, left, 18,
     &                   MPI_COMM_WORLD, preq(1), ierr)
      call MPI_SEND_INIT(psend, 1, MPI_INTEGER, right, 18,
     &                   MPI_COMM_WORLD, preq(2), ierr)
      do k = 1, 3
         psend = 10 * me + k
         if (k .lt. 3) then
            call MPI_STARTALL(2, preq, ierr)
            call MPI_WAITALL(2, preq, MPI_STATUSES_IGNORE, ierr)
         else
            call MPI_START(preq(1), ierr)
            call MPI_START(preq(2), ierr)
            call MPI_WAIT(preq(2), MPI_STATUS_IGNORE, ierr)
            call MPI_WAIT(preq(1), MPI_STATUS_IGNORE, ierr)
         end if
         call check(precv .eq. 10 * left + k, 'persistent')
         psum = psum + precv
      end do
      call MPI_REQUEST_FREE(preq(1), ierr)
      call MPI_REQUEST_FREE(preq(2), ierr)

C     Test, Testall, Waitany, Testany, each after a neighbour handshake
C     (tag 24) so the messages are in; a Wait finishes if not (no
C     spinning: a polling loop is task time), as in mpi_ringar_c.c
      cv(1) = -1
      call MPI_IRECV(cv(1), 1, MPI_INTEGER, left, 19, MPI_COMM_WORLD,
     &               creq(1), ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, right, 19, MPI_COMM_WORLD,
     &              ierr)
      call MPI_SENDRECV(me, 1, MPI_INTEGER, right, 24, hs, 1,
     &                  MPI_INTEGER, left, 24, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, ierr)
      call MPI_TEST(creq(1), flag, MPI_STATUS_IGNORE, ierr)
      if (.not. flag) call MPI_WAIT(creq(1), MPI_STATUS_IGNORE, ierr)
      call check(cv(1) .eq. left, 'test')
      call MPI_IRECV(cv(1), 1, MPI_INTEGER, left, 20, MPI_COMM_WORLD,
     &               creq(1), ierr)
      call MPI_IRECV(cv(2), 1, MPI_INTEGER, right, 21, MPI_COMM_WORLD,
     &               creq(2), ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, right, 20, MPI_COMM_WORLD,
     &              ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, left, 21, MPI_COMM_WORLD,
     &              ierr)
      call MPI_SENDRECV(me, 1, MPI_INTEGER, right, 24, hs, 1,
     &                  MPI_INTEGER, left, 24, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, ierr)
      call MPI_SENDRECV(me, 1, MPI_INTEGER, left, 24, hs, 1,
     &                  MPI_INTEGER, right, 24, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, ierr)
      call MPI_TESTALL(2, creq, flag, MPI_STATUSES_IGNORE, ierr)
      if (.not. flag) call MPI_WAITALL(2, creq, MPI_STATUSES_IGNORE,
     &                                 ierr)
      call check(cv(1) .eq. left .and. cv(2) .eq. right, 'testall')
      cv(1) = -1
      cv(2) = -1
      call MPI_IRECV(cv(1), 1, MPI_INTEGER, left, 22, MPI_COMM_WORLD,
     &               creq(1), ierr)
      call MPI_IRECV(cv(2), 1, MPI_INTEGER, right, 23, MPI_COMM_WORLD,
     &               creq(2), ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, right, 22, MPI_COMM_WORLD,
     &              ierr)
      call MPI_SEND(me, 1, MPI_INTEGER, left, 23, MPI_COMM_WORLD,
     &              ierr)
      call MPI_WAITANY(2, creq, idx, MPI_STATUS_IGNORE, ierr)
      call check(idx .eq. 1 .or. idx .eq. 2, 'waitany index')
      call MPI_SENDRECV(me, 1, MPI_INTEGER, right, 24, hs, 1,
     &                  MPI_INTEGER, left, 24, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, ierr)
      call MPI_SENDRECV(me, 1, MPI_INTEGER, left, 24, hs, 1,
     &                  MPI_INTEGER, right, 24, MPI_COMM_WORLD,
     &                  MPI_STATUS_IGNORE, ierr)
      call MPI_TESTANY(2, creq, idx, flag, MPI_STATUS_IGNORE, ierr)
      if (.not. flag) call MPI_WAITANY(2, creq, idx,
     &                                 MPI_STATUS_IGNORE, ierr)
      call check(idx .eq. 1 .or. idx .eq. 2, 'testany index')
      call check(cv(1) .eq. left .and. cv(2) .eq. right,
     &           'waitany/testany')
      psum = psum + cv(1) + cv(2)

C     collectives, MPI_IN_PLACE at the root
      v = 0
      if (me .eq. 0) v = 42
      call MPI_BCAST(v, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      r = me + 1
      rsum = 0
      if (me .eq. 0) then
         rsum = r
         call MPI_REDUCE(MPI_IN_PLACE, rsum, 1, MPI_INTEGER, MPI_SUM,
     &                   0, MPI_COMM_WORLD, ierr)
      else
         call MPI_REDUCE(r, rsum, 1, MPI_INTEGER, MPI_SUM, 0,
     &                   MPI_COMM_WORLD, ierr)
      end if
      val = rbuf(1) + rbuf(2) + x + y + v + psum
      if (me .eq. 0) then
         g(1) = val
         call MPI_GATHER(MPI_IN_PLACE, 1, MPI_INTEGER, g, 1,
     &                   MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
         write (*, '(A,I0,A,I0,A,I0)') 'p2p+coll np=', np,
     &        ' bcast=', v, ' reduce=', rsum
         write (*, '(A,64(1X,I0))') 'gather', (g(i), i = 1, np)
      else
         call MPI_GATHER(val, 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0,
     &                   MPI_COMM_WORLD, ierr)
      end if
      call MPI_FINALIZE(ierr)
      end

      subroutine check(ok, what)
      implicit none
      include 'mpif.h'
      logical ok
      character*(*) what
      integer ierr
      if (.not. ok) then
         write (0, *) 'CHECK FAILED: ', what
         call MPI_ABORT(MPI_COMM_WORLD, 3, ierr)
      end if
      end
