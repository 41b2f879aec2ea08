/*
 * libFuzzer target for lib/cpio.c: walks every entry of the input and
 * reads each name and the first and last byte of each file, so that ASan
 * catches any header the reader failed to bound.
 */
#include <kernel/cpio.h>
#include <kernel/string.h>
#include <stdlib.h>

static volatile unsigned long sink;

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *copy = malloc(size ? size : 1);
	struct cpio_entry e;
	size_t pos = 0;
	int ret;

	memcpy(copy, data, size);
	while ((ret = cpio_next(copy, size, &pos, &e)) > 0) {
		const u8 *d = e.data;

		sink += strlen(e.name) + e.mode;
		if (e.size)
			sink += d[0] + d[e.size - 1];
	}
	sink += strlen(cpio_strerror(ret));
	sink += cpio_find(copy, size, "modules/memleak_test.ko", &e);
	free(copy);
	return 0;
}
