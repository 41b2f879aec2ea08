/*
 * Spinlocks: a ticket lock (first come, first served) on the compiler's
 * atomic builtins, plus the IRQ-saving forms every lock taken from
 * interrupt context needs. Holding one keeps preemption off.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <kernel/arch.h>
#include <kernel/types.h>

struct spinlock {
	u16 next;	/* ticket handed to the next locker */
	u16 owner;	/* ticket now allowed in */
};

#define SPINLOCK_INIT { 0, 0 }
#define DEFINE_SPINLOCK(name) struct spinlock name = SPINLOCK_INIT

static inline void spin_lock_init(struct spinlock *lock)
{
	lock->next = 0;
	lock->owner = 0;
}

/*
 * Preemption off/on for the calling thread (nesting); see
 * <kernel/sched.h>. Every spinlock holder runs with preemption off, so
 * it is never switched out while another CPU spins on its lock.
 */
void preempt_disable(void);
void preempt_enable(void);

/*
 * The bare ticket lock, preemption left alone: for the scheduler's run
 * queue locks, which one thread takes and the next one releases, and
 * for code that runs with interrupts off and no thread to speak of.
 */
static inline void raw_spin_lock(struct spinlock *lock)
{
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		arch_cpu_relax();
}

static inline bool raw_spin_trylock(struct spinlock *lock)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u16 expected = owner;

	return __atomic_compare_exchange_n(&lock->next, &expected,
					   (u16)(owner + 1), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void raw_spin_unlock(struct spinlock *lock)
{
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}

static inline void spin_lock(struct spinlock *lock)
{
	preempt_disable();
	raw_spin_lock(lock);
}

static inline bool spin_trylock(struct spinlock *lock)
{
	preempt_disable();
	if (raw_spin_trylock(lock))
		return true;
	preempt_enable();
	return false;
}

static inline void spin_unlock(struct spinlock *lock)
{
	raw_spin_unlock(lock);
	preempt_enable();
}

static inline bool spin_is_locked(struct spinlock *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&lock->next, __ATOMIC_RELAXED);
}

/* Takes the lock with interrupts off; returns the old interrupt state. */
static inline unsigned long spin_lock_irqsave(struct spinlock *lock)
{
	unsigned long flags = arch_irq_save();

	spin_lock(lock);
	return flags;
}

/*
 * Interrupts go back on before preemption does, so that a switch the
 * lock held back happens right here rather than at the next tick.
 */
static inline void spin_unlock_irqrestore(struct spinlock *lock,
					  unsigned long flags)
{
	raw_spin_unlock(lock);
	arch_irq_restore(flags);
	preempt_enable();
}

#endif
