/*
 * Reads "newc" cpio archives (what the kernel gets as its boot archive)
 * in place: a 110-byte ASCII header of hex fields, the NUL-terminated
 * name, the data, each padded to 4 bytes; the entry TRAILER!!! ends it.
 */
#include <kernel/cpio.h>
#include <kernel/ctype.h>
#include <kernel/string.h>

/* Header fields, in order after the 6-byte magic, 8 hex digits each. */
enum {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE,
	F_DEVMAJOR, F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK,
};

static const char *const cpio_errors[CPIO_ERR_MAX] = {
	[0] = "no error",
	[CPIO_ERR_NOTFOUND] = "no such file in the archive",
	[CPIO_ERR_MAGIC] = "not a newc cpio header",
	[CPIO_ERR_HEADER] = "malformed cpio header field",
	[CPIO_ERR_TRUNCATED] = "archive is truncated",
	[CPIO_ERR_NAME] = "file name is empty or not terminated",
	[CPIO_ERR_NOTRAILER] = "archive ends without its trailer",
};

const char *cpio_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= CPIO_ERR_MAX)
		return "unknown cpio error";
	return cpio_errors[err];
}

/* Field f of the header at h: 0, or -1 when it is not 8 hex digits. */
static int field(const char *h, int f, u32 *val)
{
	const char *p = h + 6 + 8 * f;
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		int c = p[i];

		if (!isxdigit(c))
			return -1;
		c = isdigit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
		v = v << 4 | (u32)c;
	}
	*val = v;
	return 0;
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static const char *strip_name(const char *name)
{
	for (;;) {
		if (name[0] == '/')
			name++;
		else if (name[0] == '.' && name[1] == '/')
			name += 2;
		else
			return name;
	}
}

int cpio_next(const void *archive, size_t size, size_t *pos,
	      struct cpio_entry *e)
{
	const char *a = archive, *h;
	u32 namesize, filesize;
	size_t name_end, data_end;

	if (*pos > size || size - *pos < CPIO_HEADER_SIZE)
		return *pos == size ? -CPIO_ERR_NOTRAILER : -CPIO_ERR_TRUNCATED;
	h = a + *pos;
	if (memcmp(h, "07070", 5) || (h[5] != '1' && h[5] != '2'))
		return -CPIO_ERR_MAGIC;
	for (int f = F_INO; f <= F_CHECK; f++) {
		u32 dummy;

		if (field(h, f, &dummy))
			return -CPIO_ERR_HEADER;
	}
	field(h, F_MODE, &e->mode);
	field(h, F_FILESIZE, &filesize);
	field(h, F_NAMESIZE, &namesize);
	if (namesize > size - *pos - CPIO_HEADER_SIZE)
		return -CPIO_ERR_TRUNCATED;
	if (namesize < 2 || h[CPIO_HEADER_SIZE + namesize - 1] != '\0' ||
	    memchr(h + CPIO_HEADER_SIZE, '\0', namesize - 1))
		return -CPIO_ERR_NAME;
	e->name = strip_name(h + CPIO_HEADER_SIZE);
	/* Nothing after the trailer matters, not even its padding. */
	if (strcmp(h + CPIO_HEADER_SIZE, CPIO_TRAILER) == 0) {
		e->data = NULL;
		e->size = 0;
		return 0;
	}
	/* The name pads to 4 from the entry's start; so does the data. */
	name_end = *pos + pad4(CPIO_HEADER_SIZE + namesize);
	if (name_end > size || filesize > size - name_end)
		return -CPIO_ERR_TRUNCATED;
	data_end = name_end + filesize;
	e->data = a + name_end;
	e->size = filesize;
	/* The last file's padding may be missing at the very end. */
	*pos = pad4(data_end) <= size ? pad4(data_end) : size;
	return 1;
}

int cpio_find(const void *archive, size_t size, const char *name,
	      struct cpio_entry *e)
{
	size_t pos = 0;
	int ret;

	name = strip_name(name);
	while ((ret = cpio_next(archive, size, &pos, e)) > 0)
		if (strcmp(e->name, name) == 0)
			return 0;
	return ret == 0 ? -CPIO_ERR_NOTFOUND : ret;
}

int cpio_check(const void *archive, size_t size)
{
	struct cpio_entry e;
	size_t pos = 0;
	int ret, n = 0;

	while ((ret = cpio_next(archive, size, &pos, &e)) > 0)
		n++;
	return ret < 0 ? ret : n;
}
