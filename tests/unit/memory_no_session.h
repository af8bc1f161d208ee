/* memory_no_session.h - for test programs that compile session/memory.cpp without restart.cpp (test_memory_pointers,
   test_timeline): the block as restart.cpp would hand it out, without the session around it. Include after the
   host's .cpp files. */
#ifndef MEMORY_NO_SESSION_H
#define MEMORY_NO_SESSION_H

int restart_memory(uint64_t bytes, uint8_t **block, uint8_t **snapshot)
{
    *block = (uint8_t *)calloc(1, bytes);
    *snapshot = (uint8_t *)calloc(1, bytes);
    return *block && *snapshot;
}
void restart_restoring(int on) { (void)on; }
/* no session: no areas (the TWEAK rollback copy lives on the heap) */
void     restart_reserve(const char *name, uint64_t bytes) { (void)name; (void)bytes; }
uint8_t *restart_area(const char *name, uint64_t *cap) { (void)name; if (cap) *cap = 0; return NULL; }
void     restart_area_used(const char *name, uint64_t used) { (void)name; (void)used; }

#endif
