/*
 * The boot archive: a "newc" cpio (the initramfs format), read in place.
 * Every header, name and file is checked against the archive's size
 * before it is handed out, so a damaged archive gives an error, never a
 * read outside it.
 */
#ifndef KERNEL_CPIO_H
#define KERNEL_CPIO_H

#include <kernel/types.h>

#define CPIO_HEADER_SIZE 110
#define CPIO_TRAILER "TRAILER!!!"

/* File types in cpio_entry.mode (the st_mode bits). */
#define CPIO_S_IFMT 0170000
#define CPIO_S_IFDIR 0040000
#define CPIO_S_IFREG 0100000

/* Errors, returned negated; cpio_strerror() turns one into a message. */
enum cpio_error {
	CPIO_ERR_NOTFOUND = 1,	/* no entry of that name */
	CPIO_ERR_MAGIC,		/* header without the newc magic */
	CPIO_ERR_HEADER,	/* a header field is not 8 hex digits */
	CPIO_ERR_TRUNCATED,	/* header, name or data past the end */
	CPIO_ERR_NAME,		/* name empty or not NUL-terminated */
	CPIO_ERR_NOTRAILER,	/* the archive ends without TRAILER!!! */
	CPIO_ERR_MAX,
};

/* One member; name and data point into the archive. */
struct cpio_entry {
	const char *name;	/* without a leading "./" or "/" */
	u32 mode;
	const void *data;
	u32 size;
};

/*
 * The entry at *pos (start with 0) of an archive of size bytes; on
 * success *pos moves to the next one. Returns 1 with *e filled, 0 at the
 * trailer, or a negative CPIO_ERR_ code.
 */
int cpio_next(const void *archive, size_t size, size_t *pos,
	      struct cpio_entry *e);

/* The entry called name (leading "./" or "/" ignored): 0, or an error. */
int cpio_find(const void *archive, size_t size, const char *name,
	      struct cpio_entry *e);

/* Walks the whole archive: the number of entries, or an error. */
int cpio_check(const void *archive, size_t size);

const char *cpio_strerror(int err);

static inline bool cpio_is_regular(const struct cpio_entry *e)
{
	return (e->mode & CPIO_S_IFMT) == CPIO_S_IFREG;
}

#endif
