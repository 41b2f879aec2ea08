/*
 * The suppressions' text side (suppress_pattern.c), apart from
 * internal.h so that a fuzz target can use it without the collector.
 */
#ifndef MM_KMEMLEAK_SUPPRESS_PATTERN_H
#define MM_KMEMLEAK_SUPPRESS_PATTERN_H

#include <kernel/types.h>

/*
 * suppress_pattern.c, the text side (no lock, no state). A pattern is
 * shorter than MEMLEAK_PATTERN_LEN once LeakSanitizer's "leak:" is off;
 * memleak_check_pattern() returns it without the prefix, or NULL with
 * *why saying what is wrong with it.
 */
#define MEMLEAK_PATTERN_LEN 48
const char *memleak_check_pattern(const char *arg, const char **why);
/* Shell-style * and ? matching of a whole string. */
bool memleak_glob_match(const char *pattern, const char *s);
/* Whether a checked pattern matches a frame as kallsyms_snprint() prints it. */
bool memleak_frame_matches(const char *pattern, const char *frame);
/*
 * A file pattern has a '/' or ends in .c, .S or .h: it is matched
 * against a frame's source file (kallsyms_lookup_file()), the whole
 * path when it has a '/', else the base name.
 */
bool memleak_pattern_is_file(const char *pattern);
bool memleak_file_matches(const char *pattern, const char *path);
/*
 * Each pattern of a suppressions file (one a line, '#' comments) given
 * to add(); a line add() refuses (non-zero) is named after source.
 */
void memleak_parse_suppressions(const char *text, size_t size,
				const char *source,
				int (*add)(const char *pattern));

#endif
