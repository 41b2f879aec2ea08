/*
 * Intrusive doubly linked lists: a struct list_head sits inside each
 * element, and list_entry() (container_of) gets the element back.
 * Deleted entries are poisoned so that stale use faults loudly.
 */
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include <kernel/kernel.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_POISON_NEXT ((struct list_head *)0x00100100)
#define LIST_POISON_PREV ((struct list_head *)0x00200200)

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

/* Adds new right after head (a stack). */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* Adds new right before head (a queue). */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	entry->next = LIST_POISON_NEXT;
	entry->prev = LIST_POISON_PREV;
}

static inline void list_del_init(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	INIT_LIST_HEAD(entry);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	list_del_init(entry);
	list_add_tail(entry, head);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)

#define list_for_each_entry(pos, head, member)                          \
	for (pos = list_entry((head)->next, __typeof__(*pos), member);  \
	     &pos->member != (head);                                    \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_reverse(pos, head, member)                  \
	for (pos = list_entry((head)->prev, __typeof__(*pos), member);  \
	     &pos->member != (head);                                    \
	     pos = list_entry(pos->member.prev, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),  \
	     n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (head);                                    \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
