/* os_service_gate.h - the watchdog's deferred interrupt, the one protocol both fault backends
   (os_linux.cpp, os_win32_guard.cpp) follow. A guarded call may be inside a host service when the
   watchdog interrupts it; a jump out of the service could strand a lock it holds (stdio, malloc, the
   locale), so the backend notes the interrupt instead (os_gate_defer) and jumps when the outermost
   service returns (os_gate_leave says when). Only the backends include this file. */
#ifndef OS_SERVICE_GATE_H
#define OS_SERVICE_GATE_H

#include <stdint.h>
#include <atomic>

typedef struct OsServiceGate {
    volatile int          depth;      /* host services the guarded call is inside */
    std::atomic<uint64_t> deferred;   /* the call an interrupt arrived for while inside one; 0 = none */
} OsServiceGate;

/* A guarded call begins, or has just been left by a jump: outside every service, nothing deferred. */
static inline void os_gate_reset(OsServiceGate *g)
{
    g->depth = 0;
    g->deferred.store(0);
}

static inline void os_gate_enter(OsServiceGate *g) { g->depth = g->depth + 1; }

/* The watchdog's interrupt for call seq: 1 when it must wait (inside a service), noted for leave. */
static inline int os_gate_defer(OsServiceGate *g, uint64_t seq)
{
    if (!g->depth) return 0;
    g->deferred.store(seq);
    return 1;
}

/* A service returns: 1 when it was the outermost one and an interrupt deferred meanwhile is for the
   call still running (running), which the backend then ends as a hang, by its jump. */
static inline int os_gate_leave(OsServiceGate *g, const std::atomic<uint64_t> *running)
{
    g->depth = g->depth - 1;
    if (g->depth > 0 || !g->deferred.load(std::memory_order_relaxed)) return 0;
    uint64_t deferred = g->deferred.exchange(0);
    return deferred && deferred == running->load();
}

#endif /* OS_SERVICE_GATE_H */
