/*
 * Written pages (<kernel/written.h>) in the host library, which runs one
 * thread: from arch_track_written_pages(), when the leak collector's
 * mark begins, to arch_written_pages(), with the "world stopped", only
 * the scan itself runs, and the scan writes nothing but its own
 * metadata, which it never reads as a root or a block. So no page of
 * the arena was written, and the pause reads again none of what the
 * mark read, as a kernel with dirty bits on a quiet machine does.
 *
 * The exception is a test that plays another CPU: storing a pointer just
 * before the world stops (host_memleak_on_stop_world, see
 * arch/host/memleak.c) or while the kernel prints (host_on_console_write).
 * Its stores are invisible here, so when such a hook ran since tracking
 * began (host_other_cpu_ran), the answer is "cannot tell", and the pause
 * reads everything again.
 *
 * Locking: none; one thread.
 */
#include <kernel/written.h>
#include <asm/host.h>

bool arch_track_written_pages(void)
{
	host_other_cpu_ran = false;
	return true;
}

bool arch_written_pages(unsigned long *bits)
{
	(void)bits;	/* zeroed by the caller: nothing written */
	return !host_other_cpu_ran;
}

void arch_untrack_written_pages(void)
{
}
