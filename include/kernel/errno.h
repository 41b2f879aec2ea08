/*
 * Error numbers. Functions return them negated (-ENOMEM); the values are
 * Linux's, so a host build that also sees libc's <errno.h> gets the same
 * definitions and no clash.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define EPERM 1		/* operation not permitted */
#define ENOENT 2	/* no such entry */
#define E2BIG 7		/* argument list too long */
#define ENOEXEC 8	/* not an executable format */
#define EAGAIN 11	/* try again */
#define ENOMEM 12	/* out of memory */
#define EFAULT 14	/* bad address */
#define EBUSY 16	/* resource busy */
#define EEXIST 17	/* already exists */
#define ENODEV 19	/* no such device */
#define EINVAL 22	/* invalid argument */
#define EFBIG 27	/* too large */
#define ENOSPC 28	/* no space left */
#define ERANGE 34	/* result out of range */

#endif
