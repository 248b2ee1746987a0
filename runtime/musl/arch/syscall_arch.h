/* augur: musl's system calls go to the OS model. This header stands in for musl's
 * arch/x86_64/syscall_arch.h (found first on the include path), whose `syscall`
 * instruction the engine cannot run: every __syscallN calls `__augur_syscall`
 * (runtime/libc/syscall.c), which answers as Linux would, in the model's world, with a
 * result or -errno. */
long __augur_syscall(long, long, long, long, long, long, long);

#define __SYSCALL_LL_E(x) (x)
#define __SYSCALL_LL_O(x) (x)

static __inline long __syscall0(long n)
{
	return __augur_syscall(n, 0, 0, 0, 0, 0, 0);
}

static __inline long __syscall1(long n, long a1)
{
	return __augur_syscall(n, a1, 0, 0, 0, 0, 0);
}

static __inline long __syscall2(long n, long a1, long a2)
{
	return __augur_syscall(n, a1, a2, 0, 0, 0, 0);
}

static __inline long __syscall3(long n, long a1, long a2, long a3)
{
	return __augur_syscall(n, a1, a2, a3, 0, 0, 0);
}

static __inline long __syscall4(long n, long a1, long a2, long a3, long a4)
{
	return __augur_syscall(n, a1, a2, a3, a4, 0, 0);
}

static __inline long __syscall5(long n, long a1, long a2, long a3, long a4, long a5)
{
	return __augur_syscall(n, a1, a2, a3, a4, a5, 0);
}

static __inline long __syscall6(long n, long a1, long a2, long a3, long a4, long a5, long a6)
{
	return __augur_syscall(n, a1, a2, a3, a4, a5, a6);
}

/* No vDSO: clock_gettime is a system call like any other. */
#define IPC_64 0
