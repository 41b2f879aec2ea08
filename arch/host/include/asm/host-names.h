/* Host builds: renames kernel functions that clash with libc (kt_ prefix). */
#ifndef ASM_HOST_NAMES_H
#define ASM_HOST_NAMES_H

/* <kernel/string.h> */
#define memcpy kt_memcpy
#define memmove kt_memmove
#define memset kt_memset
#define memcmp kt_memcmp
#define memchr kt_memchr
#define strlen kt_strlen
#define strnlen kt_strnlen
#define strcmp kt_strcmp
#define strncmp kt_strncmp
#define strchr kt_strchr
#define strrchr kt_strrchr
#define strstr kt_strstr
#define strlcpy kt_strlcpy
#define strlcat kt_strlcat

/* <kernel/printk.h> */
#define vsnprintf kt_vsnprintf
#define snprintf kt_snprintf

/* <kernel/ctype.h> */
#define isdigit kt_isdigit
#define isxdigit kt_isxdigit
#define isspace kt_isspace
#define isupper kt_isupper
#define islower kt_islower
#define isalpha kt_isalpha
#define isalnum kt_isalnum
#define tolower kt_tolower
#define toupper kt_toupper

/*
 * The linker script symbols of the kernel image: on the host the image
 * is the test program itself, which GNU ld delimits with these.
 */
#define __kernel_start __executable_start
#define __kernel_end _end

#include <asm/host-config.h>

#endif
