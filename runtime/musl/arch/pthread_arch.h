/* augur: the thread pointer is the address of the one thread's descriptor (augur_musl.c),
 * where musl's arch/x86_64/pthread_arch.h reads %fs:0 with inline assembly. */
extern struct __pthread __augur_thread;

static inline uintptr_t __get_tp()
{
	return (uintptr_t)&__augur_thread;
}

#define MC_PC gregs[REG_RIP]
