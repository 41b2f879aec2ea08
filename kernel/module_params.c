/*
 * Module parameters (docs/modules.md, step 5): "insmod NAME var=value"
 * sets a variable the module declared with module_param() before its
 * init runs. The declarations are the module's .module_params section,
 * relocated: each names a variable that must lie inside the module's
 * core area. charp values are copied into one allocation the module
 * keeps (mod->param_strings) while it is loaded.
 *
 * Locking: module_mutex, held by the caller (module.c); the module's
 * code has not run yet, so nothing else reads the variables.
 */
#include "module_internal.h"
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/slab.h>

static const struct module_param *find_param(const struct load_info *info,
					     const char *name, size_t len)
{
	u32 size = 0;
	u32 addr = module_loaded_section(info, ".module_params", &size);
	const struct module_param *p = (const void *)(uintptr_t)addr;

	if (addr % sizeof(void *))
		return NULL;
	for (unsigned int i = 0; i < size / sizeof(*p); i++)
		if (module_core_string(info->mod, p[i].name) &&
		    strlen(p[i].name) == len && !strncmp(p[i].name, name, len))
			return &p[i];
	return NULL;
}

static int parse_bool(const char *v, bool *out)
{
	if (!*v || !strcmp(v, "1") || !strcmp(v, "y")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcmp(v, "n")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

/* Does the variable of p lie inside the module (a long's room)? */
static bool param_in_module(const struct module *mod,
			    const struct module_param *p)
{
	const u8 *base = mod->core.base, *ptr = p->ptr;

	return ptr >= base && ptr + sizeof(long) <= base + mod->core.size;
}

/* Stores v into p's variable: 0, or -EINVAL when v does not fit its type. */
static int store_value(const struct module_param *p, const char *v,
		       char **strings)
{
	long l;
	unsigned long ul;
	bool b;

	switch (p->type) {
	case MODULE_PARAM_int:
		if (kstrtol(v, 0, &l) || l != (int)l)
			return -EINVAL;
		*(int *)p->ptr = l;
		return 0;
	case MODULE_PARAM_uint:
		if (kstrtoul(v, 0, &ul) || ul != (unsigned int)ul)
			return -EINVAL;
		*(unsigned int *)p->ptr = ul;
		return 0;
	case MODULE_PARAM_bool:
		if (parse_bool(v, &b))
			return -EINVAL;
		*(bool *)p->ptr = b;
		return 0;
	case MODULE_PARAM_charp:
		*(char **)p->ptr = *strings;
		*strings += strlen(v) + 1;
		memcpy(*(char **)p->ptr, v, strlen(v) + 1);
		return 0;
	}
	return -EINVAL;
}

/* One "name=value": charp values are copied to *strings as it goes. */
static int set_param(struct load_info *info, const char *arg, char **strings)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *v = eq ? eq + 1 : "";
	const struct module_param *p = find_param(info, arg, len);

	if (!p) {
		printk("insmod: %s: unknown parameter '%.*s'\n", info->name,
		       (int)len, arg);
		return -EINVAL;
	}
	if (!param_in_module(info->mod, p)) {
		printk("insmod: %s: parameter '%s' is not in the module\n",
		       info->name, p->name);
		return -ENOEXEC;
	}
	if (store_value(p, v, strings)) {
		printk("insmod: %s: bad value '%s' for parameter '%.*s'\n",
		       info->name, v, (int)len, arg);
		return -EINVAL;
	}
	return 0;
}

/* Sets every "name=value" of argv: 0 or the first error. */
int module_set_params(struct load_info *info, int argc, char **argv)
{
	size_t total = 0;
	char *strings;
	int err;

	for (int i = 0; i < argc; i++)
		total += strlen(argv[i]) + 1;
	if (!total)
		return 0;
	strings = info->mod->param_strings = kmalloc(total, GFP_KERNEL);
	if (!strings)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		err = set_param(info, argv[i], &strings);
		if (err)
			return err;
	}
	return 0;
}
