/*
 * The 'vmallocinfo' shell command: lists the vmalloc areas (range,
 * size, pages, caller). vmalloc_show_areas() takes the area lock. The
 * debug command 'vmtest' is in mm/debug/vmtest.c.
 */
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/vmalloc.h>

static int cmd_vmallocinfo(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		printk("usage: vmallocinfo\n");
		return 1;
	}
	vmalloc_show_areas();
	return 0;
}
SHELL_COMMAND("vmallocinfo", cmd_vmallocinfo, "vmallocinfo",
	      "list the vmalloc areas: range, size, pages, caller");
