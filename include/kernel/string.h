/* Memory and string functions (the compiler may also call the mem* ones). */
#ifndef KERNEL_STRING_H
#define KERNEL_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
/* Copies at most size-1 bytes and always terminates; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);

/*
 * Parses an unsigned number in base 10, 16 (0x prefix) or 8 (0 prefix)
 * when base is 0. Returns 0 and stores the value when the whole string
 * is a number that fits, -1 otherwise.
 */
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);

#endif
