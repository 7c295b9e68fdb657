! mpi_hotspot_f90.f90 - the hotspot program of mpi_hotspot.c in Fortran
! (use mpi): frames must resolve to Fortran function, file and line.
module hot_kernels
  implicit none
  double precision :: sink
contains
  double precision function wtime()
    integer(kind=8) :: c, r
    call system_clock(c, r)
    wtime = dble(c) / dble(r)
  end function wtime

  subroutine heavy(seconds)
    double precision, intent(in) :: seconds
    double precision :: tend, x
    integer :: i
    x = 0
    tend = wtime() + seconds
    do while (wtime() < tend)              ! HEAVY_LOOP
      do i = 1, 1000
        x = x + i * 0.5d0                  ! HEAVY_BODY
      end do
    end do
    sink = x
  end subroutine heavy

  subroutine light(seconds)
    double precision, intent(in) :: seconds
    double precision :: tend, x
    integer :: i
    x = 0
    tend = wtime() + seconds
    do while (wtime() < tend)              ! LIGHT_LOOP
      do i = 1, 1000
        x = x + i * 0.25d0                 ! LIGHT_BODY
      end do
    end do
    sink = x
  end subroutine light
end module hot_kernels

program hotspot
  use mpi
  use hot_kernels
  implicit none
  integer :: ierr, me, np, it, iters
  double precision :: v, r, total
  character(len=32) :: arg
  iters = 20
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  total = 0
  do it = 1, iters
    if (me == 0) call heavy(0.03d0)
    call light(0.003d0)
    v = me + it
    call MPI_Allreduce(v, r, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    total = total + r
  end do
  if (me == 0) print '(a,i0,a,i0,a,f0.1)', 'hotspot np=', np, ' iterations=', iters, ' sum=', total
  call MPI_Finalize(ierr)
end program hotspot
