/*
 * Just enough ACPI to find the CPUs: the RSDP (in the EBDA or the BIOS
 * area), the RSDT or XSDT it points at, and in the MADT ("APIC") one
 * processor local APIC entry per CPU. Runs before paging, when physical
 * memory can be read directly; the tables themselves stay where the
 * firmware put them, and every table is checksummed before use.
 */
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/acpi.h>

#define EBDA_SEGMENT_PTR 0x40e
#define EBDA_SEARCH_LEN 1024
#define BIOS_AREA_START 0xe0000
#define BIOS_AREA_END 0x100000

#define MADT_LOCAL_APIC 0
#define LOCAL_APIC_ENABLED (1u << 0)

struct rsdp {
	char signature[8];
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt_address;
	/* ACPI 2.0 and later */
	u32 length;
	u64 xsdt_address;
	u8 extended_checksum;
	u8 reserved[3];
} __packed;

struct sdt_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

struct madt {
	struct sdt_header header;
	u32 lapic_address;
	u32 flags;
} __packed;

struct madt_entry {
	u8 type;
	u8 length;
} __packed;

struct madt_local_apic {
	struct madt_entry h;
	u8 processor_id;
	u8 apic_id;
	u32 flags;
} __packed;

/* The tables must lie where 32 bits reach and may not wrap. */
#define TABLE_MAX_LEN 0x100000u

static bool sum_is_zero(const void *p, u32 len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum == 0;
}

static const struct rsdp *rsdp_in(u32 start, u32 len)
{
	for (u32 at = start; at + 20 <= start + len; at += 16) {
		const struct rsdp *r = (const void *)at;

		if (memcmp(r->signature, "RSD PTR ", 8) == 0 &&
		    sum_is_zero(r, 20))
			return r;
	}
	return NULL;
}

/*
 * A word of the BIOS data area. The pointer goes through an empty asm
 * because gcc takes small constant addresses for zero-sized objects.
 */
static u16 bios_data_word(unsigned long addr)
{
	const volatile u16 *p;

	__asm__("" : "=r"(p) : "0"(addr));
	return *p;
}

static const struct rsdp *find_rsdp(void)
{
	u32 ebda = (u32)bios_data_word(EBDA_SEGMENT_PTR) << 4;
	const struct rsdp *r = NULL;

	if (ebda >= 0x80000 && ebda < BIOS_AREA_START)
		r = rsdp_in(ebda, EBDA_SEARCH_LEN);
	if (!r)
		r = rsdp_in(BIOS_AREA_START, BIOS_AREA_END - BIOS_AREA_START);
	return r;
}

static const struct sdt_header *checked_table(u64 addr, const char *sig)
{
	const struct sdt_header *h;

	if (addr == 0 || addr >= (1ull << 32) - sizeof(*h))
		return NULL;
	h = (const void *)(u32)addr;
	if (sig && memcmp(h->signature, sig, 4) != 0)
		return NULL;
	if (h->length < sizeof(*h) || h->length > TABLE_MAX_LEN ||
	    (u64)addr + h->length > (1ull << 32) ||
	    !sum_is_zero(h, h->length)) {
		printk("acpi: table %.4s at %#llx is damaged, ignored\n",
		       h->signature, addr);
		return NULL;
	}
	return h;
}

/* The MADT, through the XSDT (64-bit entries) or the RSDT (32-bit). */
static const struct madt *find_madt(const struct rsdp *r)
{
	const struct sdt_header *root = NULL;
	unsigned int entry_size = 4;
	const u8 *p, *end;

	if (r->revision >= 2 && sum_is_zero(r, sizeof(*r)))
		root = checked_table(r->xsdt_address, "XSDT");
	if (root)
		entry_size = 8;
	else
		root = checked_table(r->rsdt_address, "RSDT");
	if (!root)
		return NULL;
	end = (const u8 *)root + root->length;
	for (p = (const u8 *)(root + 1); p + entry_size <= end;
	     p += entry_size) {
		u64 addr = entry_size == 8 ? *(const u64 *)p : *(const u32 *)p;
		const struct sdt_header *h = checked_table(addr, "APIC");

		if (h && h->length >= sizeof(struct madt))
			return (const struct madt *)h;
	}
	return NULL;
}

int acpi_for_each_cpu(void (*fn)(u32 apic_id))
{
	const struct rsdp *r = find_rsdp();
	const struct madt *madt;
	const u8 *p, *end;
	int n = 0;

	if (!r)
		return -1;
	madt = find_madt(r);
	if (!madt)
		return -1;
	end = (const u8 *)madt + madt->header.length;
	p = (const u8 *)(madt + 1);
	while (p + sizeof(struct madt_entry) <= end) {
		const struct madt_entry *e = (const void *)p;
		const struct madt_local_apic *la = (const void *)p;

		if (e->length < sizeof(*e) || p + e->length > end)
			break;
		if (e->type == MADT_LOCAL_APIC && e->length >= sizeof(*la) &&
		    (la->flags & LOCAL_APIC_ENABLED)) {
			fn(la->apic_id);
			n++;
		}
		p += e->length;
	}
	return n;
}
