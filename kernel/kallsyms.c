/*
 * Symbol lookups for backtraces and %pS: a binary search in the sorted
 * address array of the kernel's table (linked into .kallsyms by
 * tools/kallsyms.py), then in each added table. Lookups keep no state
 * and take no lock, so panic and exception paths can use them anywhere;
 * they only count themselves, so that a module's table can be removed
 * once none is running.
 */
#include <kernel/kallsyms.h>
#include <kernel/compiler.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/*
 * The kernel's table, delimited by linker/sections.ld. Weak because the
 * host unit tests link this file without any kernel image: there both
 * are NULL and only the tables the tests add are searched. The table
 * sits in its own read-only section, outside .data and .bss, so that
 * the leak collector never scans thousands of addresses for pointers.
 */
extern const char __start_kallsyms[] __weak;
extern const char __stop_kallsyms[] __weak;

/* The kernel's table's owner: kallsyms_snprint() names only modules. */
static const char kernel_owner[] = "kernel";

/* Added tables, newest first; pushed atomically, unlinked by del. */
static struct kallsyms_table *extra_tables;

/* Lookups walking the added tables now, on every CPU. */
static unsigned int active_lookups;

const char *kallsyms_table_init(struct kallsyms_table *t, const char *owner,
				const void *blob, size_t size)
{
	const struct kallsyms_header *h = blob;
	const u32 *words = blob;
	size_t n;

	if (!blob || size < sizeof(*h))
		return "no table";
	if ((uintptr_t)blob % sizeof(u32))
		return "table not aligned";
	if (h->magic != KALLSYMS_MAGIC || h->version != KALLSYMS_VERSION)
		return "bad magic or version";
	n = h->count;
	/* Divisions, not products, so that a huge count cannot overflow. */
	if (n > (size - sizeof(*h)) / (3 * sizeof(u32)) ||
	    h->strings_size > size - sizeof(*h) - 3 * n * sizeof(u32))
		return "table larger than its section";
	if (h->strings_size == 0 ? n != 0 :
	    ((const char *)blob)[sizeof(*h) + 3 * n * sizeof(u32) +
				 h->strings_size - 1] != '\0')
		return "names not terminated";
	t->owner = owner;
	t->count = n;
	t->addrs = words + sizeof(*h) / sizeof(u32);
	t->sizes = t->addrs + n;
	t->names = t->sizes + n;
	t->strings = (const char *)(t->names + n);
	t->strings_size = h->strings_size;
	t->unloaded = false;
	t->next = NULL;
	return NULL;
}

const char *kallsyms_table_check(const struct kallsyms_table *t)
{
	for (unsigned int i = 0; i < t->count; i++) {
		if (t->sizes[i] == 0)
			return "symbol of size 0";
		if (t->addrs[i] + (u64)t->sizes[i] > 0x100000000ull)
			return "symbol past the end of the address space";
		if (i && t->addrs[i] < t->addrs[i - 1] + (u64)t->sizes[i - 1])
			return "addresses not ascending or overlapping";
		if (t->names[i] >= t->strings_size)
			return "name outside the strings";
	}
	return NULL;
}

void kallsyms_add_table(struct kallsyms_table *t)
{
	struct kallsyms_table *head = __atomic_load_n(&extra_tables,
						      __ATOMIC_RELAXED);

	/* Release: a reader that sees t also sees everything t points at. */
	do {
		t->next = head;
	} while (!__atomic_compare_exchange_n(&extra_tables, &head, t, true,
					      __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
}

void kallsyms_del_table(struct kallsyms_table *t, void (*wait)(void))
{
	struct kallsyms_table **pp = &extra_tables;

	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (!*pp)
		return;
	/*
	 * Sequentially consistent with the lookups' count: a lookup that
	 * starts after the count reads 0 here also sees t unlinked.
	 */
	__atomic_store_n(pp, t->next, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&active_lookups, __ATOMIC_SEQ_CST))
		wait();
}

const char *kallsyms_builtin(struct kallsyms_table *t)
{
	if (!__start_kallsyms)
		return "no table linked";
	return kallsyms_table_init(t, kernel_owner, __start_kallsyms,
				   __stop_kallsyms - __start_kallsyms);
}

/* The name of entry i; an offset outside the strings gives "?". */
static const char *entry_name(const struct kallsyms_table *t, unsigned int i)
{
	return t->names[i] < t->strings_size ? t->strings + t->names[i] : "?";
}

/* The entry holding addr, or -1. */
static long table_find(const struct kallsyms_table *t, unsigned long addr)
{
	unsigned int lo = 0, hi = t->count, mid;

	if ((u32)addr != addr)
		return -1;	/* tables hold 32-bit addresses */
	/* Afterwards lo is the number of entries starting at or below addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->addrs[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - t->addrs[lo - 1] >= t->sizes[lo - 1])
		return -1;
	return lo - 1;
}

/* Calls fn on the kernel's table, then on each added one, until fn is done. */
static bool for_each_table(bool (*fn)(const struct kallsyms_table *, void *),
			   void *arg)
{
	struct kallsyms_table builtin, *t;
	bool found = false;

	if (!kallsyms_builtin(&builtin) && fn(&builtin, arg))
		return true;
	__atomic_add_fetch(&active_lookups, 1, __ATOMIC_SEQ_CST);
	for (t = __atomic_load_n(&extra_tables, __ATOMIC_SEQ_CST); t && !found;
	     t = __atomic_load_n(&t->next, __ATOMIC_ACQUIRE))
		found = fn(t, arg);
	__atomic_sub_fetch(&active_lookups, 1, __ATOMIC_SEQ_CST);
	return found;
}

struct addr_query {
	unsigned long addr;
	const char *name;
	unsigned long size, offset;
};

static bool find_addr(const struct kallsyms_table *t, void *arg)
{
	struct addr_query *q = arg;
	long i = table_find(t, q->addr);

	if (i < 0)
		return false;
	q->name = entry_name(t, i);
	q->size = t->sizes[i];
	q->offset = q->addr - t->addrs[i];
	return true;
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	struct addr_query q = { .addr = addr };

	if (!for_each_table(find_addr, &q))
		return NULL;
	if (size)
		*size = q.size;
	if (offset)
		*offset = q.offset;
	return q.name;
}

struct print_query {
	unsigned long addr;
	char *buf;
	size_t len;
	int printed;
};

/*
 * Printed while the lookup still counts itself: a module's table and
 * its names cannot be freed under it.
 */
static bool print_addr(const struct kallsyms_table *t, void *arg)
{
	struct print_query *q = arg;
	long i = table_find(t, q->addr);
	int n;

	if (i < 0)
		return false;
	n = snprintf(q->buf, q->len, "%.*s+0x%lx/0x%x", KSYM_NAME_MAX,
		     entry_name(t, i), q->addr - t->addrs[i], t->sizes[i]);
	if (t->owner != kernel_owner && n >= 0 && (size_t)n < q->len)
		n += snprintf(q->buf + n, q->len - n, " [%s]%s", t->owner,
			      t->unloaded ? " (unloaded)" : "");
	q->printed = n < 0 ? 0 : min((size_t)n, q->len ? q->len - 1 : 0);
	return true;
}

int kallsyms_snprint(char *buf, size_t len, unsigned long addr)
{
	struct print_query q = { .addr = addr, .buf = buf, .len = len };

	if (len)
		buf[0] = '\0';
	if (!len || !for_each_table(print_addr, &q))
		return 0;
	return q.printed;
}

struct name_query {
	const char *name;
	unsigned long addr;
};

static bool find_name(const struct kallsyms_table *t, void *arg)
{
	struct name_query *q = arg;

	if (t->unloaded)
		return false;	/* kept for old traces: no code there */
	for (unsigned int i = 0; i < t->count; i++) {
		if (strcmp(entry_name(t, i), q->name) == 0) {
			q->addr = t->addrs[i];
			return true;
		}
	}
	return false;
}

unsigned long kallsyms_lookup_name(const char *name)
{
	struct name_query q = { .name = name };

	return for_each_table(find_name, &q) ? q.addr : 0;
}

const char *kallsyms_data_table_init(struct kallsyms_table *t,
				     const void *section, size_t size)
{
	const u32 *trailer;

	if (!section || size < 2 * sizeof(u32) || size % sizeof(u32) ||
	    (uintptr_t)section % sizeof(u32))
		return "no data table";
	trailer = (const u32 *)((const char *)section + size) - 2;
	if (trailer[1] != KALLSYMS_DATA_MAGIC)
		return "no data table";
	if (trailer[0] > size - 2 * sizeof(u32))
		return "data table larger than its section";
	return kallsyms_table_init(t, kernel_owner,
				   (const char *)trailer - trailer[0],
				   trailer[0]);
}

const char *kallsyms_lookup_data(unsigned long addr, unsigned long *size,
				 unsigned long *offset)
{
	struct addr_query q = { .addr = addr };
	struct kallsyms_table t;

	if (!__start_kallsyms ||
	    kallsyms_data_table_init(&t, __start_kallsyms,
				     __stop_kallsyms - __start_kallsyms) ||
	    !find_addr(&t, &q))
		return NULL;
	if (size)
		*size = q.size;
	if (offset)
		*offset = q.offset;
	return q.name;
}

const char *kallsyms_files_init(struct kallsyms_files *f,
				const struct kallsyms_table *text,
				const void *section, size_t size)
{
	const struct kallsyms_files_header *h;
	size_t at, room, index_bytes;

	if (!text->strings)
		return "no text table";
	at = text->strings + text->strings_size - (const char *)section;
	if (at > size || size - at < sizeof(*h))
		return "no file table";
	h = (const void *)((const char *)section + at);
	if (h->magic != KALLSYMS_FILES_MAGIC ||
	    h->version != KALLSYMS_FILES_VERSION)
		return "no file table";
	if (h->count != text->count)
		return "file table not of this text table";
	room = size - at - sizeof(*h);
	index_bytes = (h->count * sizeof(u16) + 3) & ~(size_t)3;
	/* Divisions, not products, so that huge counts cannot overflow. */
	if (h->count > room / sizeof(u16) || index_bytes > room ||
	    h->nr_files > (room - index_bytes) / sizeof(u32) ||
	    h->strings_size > room - index_bytes - h->nr_files * sizeof(u32))
		return "file table larger than its section";
	f->count = h->count;
	f->nr_files = h->nr_files;
	f->file_of = (const u16 *)(h + 1);
	f->names = (const u32 *)((const char *)f->file_of + index_bytes);
	f->strings = (const char *)(f->names + f->nr_files);
	f->strings_size = h->strings_size;
	if (f->strings_size && f->strings[f->strings_size - 1] != '\0')
		return "file names not terminated";
	return NULL;
}

const char *kallsyms_files_name(const struct kallsyms_files *f,
				unsigned int i)
{
	unsigned int file;

	if (i >= f->count)
		return NULL;
	file = f->file_of[i];
	if (file >= f->nr_files || f->names[file] >= f->strings_size)
		return NULL;
	return f->strings + f->names[file];
}

const char *kallsyms_lookup_file(unsigned long addr)
{
	struct kallsyms_table text;
	struct kallsyms_files files;
	long i;

	if (kallsyms_builtin(&text) ||
	    kallsyms_files_init(&files, &text, __start_kallsyms,
				__stop_kallsyms - __start_kallsyms))
		return NULL;
	i = table_find(&text, addr);
	return i < 0 ? NULL : kallsyms_files_name(&files, i);
}
