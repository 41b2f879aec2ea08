"""GDB commands for the kleak kernel (after Linux's scripts/gdb lx-*)."""
