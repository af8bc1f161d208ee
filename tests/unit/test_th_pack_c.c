/* th_pack.h compiled as C99: write an archive in memory, read it back, refuse a damaged copy. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_PACK_IMPLEMENTATION
#include "th_pack.h"

#include <stdlib.h>
#include <string.h>

static void test_c_round_trip(void)
{
    thpk_writer w;
    thpk_archive a;
    char err[256] = "";
    size_t n = 0, got = 0;
    uint8_t *bytes;
    const char *p;
    int i;
    thpk_writer_init(&w);
    TH_CHECK(thpk_writer_add(&w, "b/two", "22", 2, err, sizeof err));
    TH_CHECK(thpk_writer_add(&w, "a/one", "1", 1, err, sizeof err));
    TH_CHECK(!thpk_writer_add(&w, "../up", "x", 1, err, sizeof err));
    bytes = (uint8_t *)thpk_writer_build(&w, &n, err, sizeof err);
    thpk_writer_free(&w);
    TH_CHECK(bytes != NULL);
    if (!bytes) return;
    TH_CHECK(thpk_open_memory(&a, bytes, n, err, sizeof err));
    TH_CHECK_EQ_INT(a.count, 2);
    TH_CHECK(strcmp(thpk_name(&a, 0), "a/one") == 0);
    i = thpk_find(&a, "b/two");
    p = (const char *)thpk_get(&a, i, &got, err, sizeof err);
    TH_CHECK(i == 1 && p && got == 2 && memcmp(p, "22", 2) == 0);
    bytes[n - 1] ^= 1;                               /* last byte of "b/two" */
    TH_CHECK(thpk_get(&a, i, &got, err, sizeof err) == NULL && got == 0 && strstr(err, "b/two"));
    thpk_close(&a);
    TH_CHECK(!thpk_open_memory(&a, bytes, n - 1, err, sizeof err));
    free(bytes);
}

int main(void)
{
    TH_RUN(test_c_round_trip);
    return th_test_finish();
}
