! bench/apps/stencil_f.f90 - the proxy stencil of stencil.c in Fortran
! (use mpi): 2-D Jacobi on a Cartesian grid of ranks, halo exchange with
! MPI_Irecv/MPI_Isend/MPI_Waitall, an MPI_Allreduce of the residual every
! iteration; each event is preceded by the --work-us work.  Same options and
! output as the C apps (bench/apps/common.h); its own --calibrate, since its
! loop is not the C one.
module stencil_work
  use iso_c_binding
  implicit none
  type, bind(c) :: timespec
    integer(c_long) :: tv_sec, tv_nsec
  end type timespec
  interface
    function c_nanosleep(req, rem) bind(c, name='nanosleep') result(r)
      import :: timespec, c_int
      type(timespec), intent(in) :: req
      type(timespec), intent(out) :: rem
      integer(c_int) :: r
    end function c_nanosleep
    function c_prctl(option, arg2, arg3, arg4, arg5) bind(c, name='prctl') result(r)
      import :: c_int, c_long
      integer(c_int), value :: option
      integer(c_long), value :: arg2, arg3, arg4, arg5
      integer(c_int) :: r
    end function c_prctl
  end interface
  integer(8) :: sink = 1
  real(8) :: work_us = 0, cal = 0
  logical :: use_sleep = .false.
contains
  function now() result(t)
    real(8) :: t
    integer(8) :: c, rate
    call system_clock(c, rate)
    t = real(c, 8) / real(rate, 8)
  end function now

  ! xorshift chain: dependent integer operations, no overflow
  function spin(n, x0) result(x)
    integer(8), intent(in) :: n, x0
    integer(8) :: x, i
    x = x0
    do i = 1, n
      x = ieor(x, ishft(x, 13))
      x = ieor(x, ishft(x, -7))
      x = ieor(x, ishft(x, 17))
    end do
  end function spin

  function calibrate() result(best)
    real(8) :: best, t0, t
    integer(8) :: n
    integer :: trial
    n = 1000
    best = 0
    do
      t0 = now()
      sink = ieor(sink, spin(n, 88172645463325252_8))
      t = now() - t0
      if (t >= 0.02d0) exit
      n = n * 2
    end do
    best = real(n, 8) / (t * 1d6)
    do trial = 1, 9
      t0 = now()
      sink = ieor(sink, spin(n, 88172645463325252_8 + trial))
      t = now() - t0
      best = max(best, real(n, 8) / (t * 1d6))
    end do
  end function calibrate

  subroutine work()
    type(timespec) :: req, rem
    integer(8) :: ns
    integer(c_int) :: rc
    if (work_us <= 0) return
    if (use_sleep) then
      ns = int(work_us * 1000d0, 8)
      req%tv_sec = ns / 1000000000_8
      req%tv_nsec = mod(ns, 1000000000_8)
      do
        rc = c_nanosleep(req, rem)
        if (rc == 0) exit
        req = rem  ! interrupted (EINTR): sleep the rest
      end do
    else
      sink = ieor(sink, spin(int(work_us * cal, 8), ior(sink, 1_8)))
    end if
  end subroutine work
end module stencil_work

program stencil_f
  use mpi
  use stencil_work
  implicit none
  integer :: ierr, nprocs, rank, cart, n, i, j, d, k, nr, argi, nargs
  integer :: dims(2), coords(2), nb(4), rq(8)
  logical :: periods(2)
  integer(8) :: iters, it, ncalls, nevents, cnt(2), tot(2)
  real(8), allocatable :: u(:,:), v(:,:), sbuf(:,:), rbuf(:,:), tmp(:,:)
  real(8) :: t0, t_loop, tmax, res, lres, x, lsum, gsum
  character(len=64) :: arg, val
  integer(c_int) :: prc

  iters = 100
  n = 32
  nargs = command_argument_count()
  argi = 1
  do while (argi <= nargs)
    call get_command_argument(argi, arg)
    val = ''
    if (argi < nargs) call get_command_argument(argi + 1, val)
    select case (trim(arg))
    case ('--calibrate')
      write (*, '(f0.3)') calibrate()
      stop
    case ('--sleep')
      use_sleep = .true.
    case ('--iters')
      read (val, *) iters
      argi = argi + 1
    case ('--work-us')
      read (val, *) work_us
      argi = argi + 1
    case ('--cal')
      read (val, *) cal
      argi = argi + 1
    case ('--n')
      read (val, *) n
      argi = argi + 1
    case default
      write (0, '(a)') 'usage: stencil_f [--iters N] [--work-us W] [--sleep] [--cal X] [--n N] | --calibrate'
      error stop 2
    end select
    argi = argi + 1
  end do
  if (use_sleep) then
    prc = c_prctl(29_c_int, 1_c_long, 0_c_long, 0_c_long, 0_c_long) ! PR_SET_TIMERSLACK
  else if (work_us > 0 .and. cal <= 0) then
    cal = calibrate()
  end if

  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  dims = 0
  periods = .false.
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, nb(1), nb(2), ierr)   ! up, down
  call MPI_Cart_shift(cart, 1, 1, nb(3), nb(4), ierr)   ! left, right

  ! u(i, j): i = row (0..n+1), j = column; same layout of values as stencil.c
  allocate (u(0:n+1, 0:n+1), v(0:n+1, 0:n+1), sbuf(n, 4), rbuf(n, 4))
  u = 0
  v = 0
  sbuf = 0
  rbuf = 0
  if (nb(1) == MPI_PROC_NULL) then
    u(0, :) = 1
    v(0, :) = 1
  end if
  ncalls = 0
  nevents = 0
  res = 0

  call MPI_Barrier(cart, ierr)
  t0 = now()
  do it = 1, iters
    nr = 0
    do d = 1, 4
      if (nb(d) /= MPI_PROC_NULL) then
        nr = nr + 1
        ! the tag is the sender's direction, as in stencil.c (d ^ 1, 0-based)
        call MPI_Irecv(rbuf(1, d), n, MPI_DOUBLE_PRECISION, nb(d), ieor(d - 1, 1), cart, rq(nr), ierr)
        ncalls = ncalls + 1
      end if
    end do
    do d = 1, 4
      if (nb(d) == MPI_PROC_NULL) cycle
      do k = 1, n
        select case (d)
        case (1); sbuf(k, d) = u(1, k)
        case (2); sbuf(k, d) = u(n, k)
        case (3); sbuf(k, d) = u(k, 1)
        case (4); sbuf(k, d) = u(k, n)
        end select
      end do
      call work()
      nr = nr + 1
      call MPI_Isend(sbuf(1, d), n, MPI_DOUBLE_PRECISION, nb(d), d - 1, cart, rq(nr), ierr)
      ncalls = ncalls + 1
      nevents = nevents + 1
    end do
    call work()
    call MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE, ierr)
    ncalls = ncalls + 1
    nevents = nevents + 1
    do d = 1, 4
      if (nb(d) == MPI_PROC_NULL) cycle
      do k = 1, n
        select case (d)
        case (1); u(0, k) = rbuf(k, d)
        case (2); u(n + 1, k) = rbuf(k, d)
        case (3); u(k, 0) = rbuf(k, d)
        case (4); u(k, n + 1) = rbuf(k, d)
        end select
      end do
    end do
    lres = 0
    do i = 1, n          ! row-major order, as in stencil.c, for identical sums
      do j = 1, n
        x = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
        lres = lres + (x - u(i, j)) * (x - u(i, j))
        v(i, j) = x
      end do
    end do
    call move_alloc(u, tmp)
    call move_alloc(v, u)
    call move_alloc(tmp, v)
    call work()
    call MPI_Allreduce(lres, res, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr)
    ncalls = ncalls + 1
    nevents = nevents + 1
  end do
  t_loop = now() - t0

  lsum = 0
  do i = 1, n
    do j = 1, n
      lsum = lsum + u(i, j)
    end do
  end do
  call MPI_Allreduce(lsum, gsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr)
  call MPI_Reduce(t_loop, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  cnt = [ncalls, nevents]
  call MPI_Reduce(cnt, tot, 2, MPI_INTEGER8, MPI_SUM, 0, cart, ierr)
  if (rank == 0) then
    write (*, '(a,es22.15e3)') 'checksum stencil_f ', gsum + res
    write (*, '(a,i0,a,i0,a,f0.6,a,i0,a,i0,a,i0,a,i0,a,g0,a,i0)') 'stats app=stencil_f ranks=', nprocs, &
      ' iters=', iters, ' loop_s=', tmax, ' calls=', tot(1), ' events=', tot(2), &
      ' calls_per_rank_s=', nint(tot(1) / (nprocs * tmax), 8), &
      ' events_per_rank_s=', nint(tot(2) / (nprocs * tmax), 8), ' work_us=', work_us, &
      ' sleep=', merge(1, 0, use_sleep)
  end if
  call MPI_Comm_free(cart, ierr)
  call MPI_Finalize(ierr)
end program stencil_f
