/* LD_PRELOAD shim: this process sees a CPU without AVX-512, VNNI or AMX (an AVX2 + FMA
 * Haswell-class CPU), so ONNX Runtime's MLAS and numpy choose their AVX2 kernels, which then
 * run natively. Uses Linux CPUID faulting (arch_prctl ARCH_SET_CPUID, flag "cpuid_fault"):
 * every CPUID traps to SIGSEGV; the handler runs the real CPUID with faulting briefly off and
 * clears the masked bits. Benchmarks only (benchmarks/cpu/README in docs/ingest-speed.md).
 *   cc -O2 -shared -fPIC -o avx2_only.so avx2_only.c
 *   LD_PRELOAD=$PWD/avx2_only.so python ...   (CITEWISE_AVX2_ONLY_QUIET=1: no banner)
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static long arch_prctl(int code, unsigned long arg) { return syscall(SYS_arch_prctl, code, arg); }

/* leaf 7.0 EBX: AVX512F DQ IFMA PF ER CD BW VL */
#define L7_EBX ((1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | (1u << 31))
/* leaf 7.0 ECX: AVX512_VBMI, VBMI2, VNNI, BITALG, VPOPCNTDQ */
#define L7_ECX ((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14))
/* leaf 7.0 EDX: 4VNNIW 4FMAPS VP2INTERSECT AMX-BF16 AVX512_FP16 AMX-TILE AMX-INT8 */
#define L7_EDX ((1u << 2) | (1u << 3) | (1u << 8) | (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25))
/* leaf 7.1 EAX: AVX-VNNI, AVX512_BF16, AMX-FP16, AVX-IFMA; EDX: AVX-VNNI-INT8, AVX-NE-CONVERT, AMX-COMPLEX, AVX-VNNI-INT16, AVX10 */
#define L71_EAX ((1u << 4) | (1u << 5) | (1u << 21) | (1u << 23))
#define L71_EDX ((1u << 4) | (1u << 5) | (1u << 8) | (1u << 10) | (1u << 19))

static void on_segv(int sig, siginfo_t *info, void *context) {
    ucontext_t *uc = context;
    greg_t *regs = uc->uc_mcontext.gregs;
    const unsigned char *ip = (const unsigned char *)regs[REG_RIP];
    (void)info;
    if (ip[0] != 0x0f || ip[1] != 0xa2) { /* not CPUID: a real fault */
        signal(sig, SIG_DFL);
        return;
    }
    unsigned leaf = (unsigned)regs[REG_RAX], sub = (unsigned)regs[REG_RCX];
    unsigned a, b, c, d;
    arch_prctl(ARCH_SET_CPUID, 1);
    __cpuid_count(leaf, sub, a, b, c, d);
    arch_prctl(ARCH_SET_CPUID, 0);
    if (leaf == 7 && sub == 0) { b &= ~L7_EBX; c &= ~L7_ECX; d &= ~L7_EDX; }
    if (leaf == 7 && sub == 1) { a &= ~L71_EAX; d &= ~L71_EDX; }
    if (leaf == 0xd && sub == 0) { a &= ~0x600e0u; } /* XSAVE: no AVX-512 or AMX state */
    regs[REG_RAX] = a; regs[REG_RBX] = b; regs[REG_RCX] = c; regs[REG_RDX] = d;
    regs[REG_RIP] += 2;
}

__attribute__((constructor)) static void avx2_only(void) {
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = on_segv;
    act.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &act, NULL);
    if (arch_prctl(ARCH_SET_CPUID, 0) != 0) {
        fprintf(stderr, "avx2_only: CPUID faulting unavailable; NOT emulating AVX2-only\n");
        _exit(3);
    }
    if (!getenv("CITEWISE_AVX2_ONLY_QUIET"))
        fprintf(stderr, "avx2_only: CPUID masks AVX-512, VNNI and AMX in this process\n");
}
