// Unit tests for the session's slices (platform/core/core.cpp, core.h's session_slice): what a module keeps across
// a hot restart. A slice is the module's own memory until the session starts, moves into the session's area with
// what was written so far, is found again by name in a restarted process (kept), and is not kept when its size
// changed or the area is not a session's.
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#include "core/core.cpp"

#include <stdlib.h>
#include <string.h>

typedef struct Buses { float volume[3]; int set[3]; } Buses;

static uint64_t g_area[2048];   /* 16 KiB, as restart.cpp's space after its header */

/* a new process: nothing of its own yet (the old one's memory is freed, as its exit would) */
static void new_process(void)
{
    for (int i = 0; i < g_slices.asked_count; i++) free(g_slices.asked[i].own);
    memset(&g_slices, 0, sizeof g_slices);
}

static void reset_all(void)
{
    new_process();
    memset(g_area, 0xAB, sizeof g_area);   /* a fresh area is not zeroed by the caller: attach must set it up */
}

static void test_before_the_session_its_own_memory(void)
{
    reset_all();
    Buses *b = (Buses *)session_slice("audio.buses", sizeof(Buses));
    TH_CHECK(b != NULL);
    TH_CHECK(b->set[0] == 0 && b->volume[2] == 0.0f);   /* zeroed */
    b->volume[1] = 0.25f;
    TH_CHECK(session_slice("audio.buses", sizeof(Buses)) == b);   /* the same memory until the session starts */
    TH_CHECK(!session_slice_kept("audio.buses"));
}

static void test_attach_moves_what_was_written(void)
{
    reset_all();
    Buses *own = (Buses *)session_slice("audio.buses", sizeof(Buses));
    own->volume[1] = 0.25f;
    own->set[1] = 1;
    session_slices_attach(g_area, sizeof g_area, 0);
    Buses *in = (Buses *)session_slice("audio.buses", sizeof(Buses));
    TH_CHECK((uint8_t *)in > (uint8_t *)g_area && (uint8_t *)in < (uint8_t *)g_area + sizeof g_area);
    TH_CHECK(((uintptr_t)in & 15) == 0);
    TH_CHECK(in->volume[1] == 0.25f && in->set[1] == 1 && in->set[0] == 0);
    TH_CHECK(!session_slice_kept("audio.buses"));   /* a fresh session keeps nothing */
    double *seen = (double *)session_slice("develop.sources_seen", sizeof(double));
    TH_CHECK((uint8_t *)seen >= (uint8_t *)in + sizeof(Buses));   /* a later slice does not overlap */
    TH_CHECK(*seen == 0.0);
}

static void test_a_restarted_process_finds_them(void)
{
    reset_all();
    session_slices_attach(g_area, sizeof g_area, 0);
    ((Buses *)session_slice("audio.buses", sizeof(Buses)))->volume[2] = 0.5f;
    *(double *)session_slice("develop.sources_seen", sizeof(double)) = 1234.5;
    /* the old process is gone: the new one starts with nothing of its own and the same area */
    new_process();
    session_slices_attach(g_area, sizeof g_area, 1);
    TH_CHECK(session_slice_kept("audio.buses"));
    TH_CHECK(session_slice_kept("develop.sources_seen"));
    TH_CHECK(((Buses *)session_slice("audio.buses", sizeof(Buses)))->volume[2] == 0.5f);
    TH_CHECK(*(double *)session_slice("develop.sources_seen", sizeof(double)) == 1234.5);
    /* a slice first asked for in this process is new, not kept */
    TH_CHECK(*(int *)session_slice("new.one", sizeof(int)) == 0);
    TH_CHECK(!session_slice_kept("new.one"));
}

static void test_written_early_in_a_restarted_process(void)
{
    reset_all();
    session_slices_attach(g_area, sizeof g_area, 0);
    *(double *)session_slice("develop.sources_seen", sizeof(double)) = 7.0;
    new_process();
    /* asked for before the restarted process attached: the old process's bytes win */
    *(double *)session_slice("develop.sources_seen", sizeof(double)) = 99.0;
    session_slices_attach(g_area, sizeof g_area, 1);
    TH_CHECK(session_slice_kept("develop.sources_seen"));
    TH_CHECK(*(double *)session_slice("develop.sources_seen", sizeof(double)) == 7.0);
}

static void test_another_size_is_not_kept(void)
{
    reset_all();
    session_slices_attach(g_area, sizeof g_area, 0);
    session_slice("audio.buses", sizeof(Buses));
    new_process();
    session_slices_attach(g_area, sizeof g_area, 1);
    /* the slice's layout changed between the two hosts: its bytes are not read as the new layout */
    float *other = (float *)session_slice("audio.buses", 64);
    TH_CHECK((uint8_t *)other < (uint8_t *)g_area || (uint8_t *)other >= (uint8_t *)g_area + sizeof g_area);
}

static void test_not_a_session_starts_fresh(void)
{
    reset_all();   /* 0xAB everywhere: no table */
    session_slices_attach(g_area, sizeof g_area, 1);
    TH_CHECK(!session_slice_kept("audio.buses"));
    Buses *b = (Buses *)session_slice("audio.buses", sizeof(Buses));
    TH_CHECK(b->set[0] == 0 && b->volume[0] == 0.0f);
}

static void test_full_area_keeps_own_memory(void)
{
    reset_all();
    session_slices_attach(g_area, 1024, 0);   /* room for the table and little else */
    uint8_t *big = (uint8_t *)session_slice("big", 4096);
    TH_CHECK(big != NULL);
    TH_CHECK(big < (uint8_t *)g_area || big >= (uint8_t *)g_area + 1024);   /* does not fit: the module's own */
    big[4095] = 1;
    TH_CHECK(session_slice("big", 4096) == big);
}

int main(void)
{
    TH_RUN(test_before_the_session_its_own_memory);
    TH_RUN(test_attach_moves_what_was_written);
    TH_RUN(test_a_restarted_process_finds_them);
    TH_RUN(test_written_early_in_a_restarted_process);
    TH_RUN(test_another_size_is_not_kept);
    TH_RUN(test_not_a_session_starts_fresh);
    TH_RUN(test_full_area_keeps_own_memory);
    return th_test_finish();
}
