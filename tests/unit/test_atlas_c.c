/* th_atlas.h compiled as C99, with the manual's example. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int manual_example(void)
{
    int errors = 0, i;
    thal_manifest m;
    char err[256];
    thal_init(&m);
    if (!thal_load(&m, "build/assets/atlas.txt", err, sizeof err)) printf("atlas: %s\n", err);
    for (int i = 0; i < m.sprite_count; i++)
        if (m.sprites[i].error) printf("%s: %s\n", m.sprites[i].file, m.sprites[i].reason);
    for (i = 0; i < m.sprite_count; i++) errors += m.sprites[i].error;
    thal_free(&m);
    return errors >= 0;
}

static void test_c_round_trip(void)
{
    thal_manifest a, b;
    thal_sprite *s;
    thal_page *p;
    char *text;
    size_t len = 0;
    char err[128];
    thal_init(&a);
    thal_init(&b);
    a.page_max = 64;
    a.padding = 1;
    p = thal_add_page(&a);
    p->w = p->h = 64;
    strcpy(p->file, "atlas_0.png");
    s = thal_add_sprite(&a);
    strcpy(s->name, "x/y");
    strcpy(s->file, "x/y.png");
    s->id = thal_id("x/y");
    s->w = s->h = 8;
    s->pivot_x = s->pivot_y = 0.5f;
    text = thal_format(&a, &len);
    TH_CHECK(text != NULL);
    TH_CHECK(thal_parse(&b, text, len, err, sizeof err));
    TH_CHECK(thal_find(&b, thal_id("x/y")) != NULL);
    TH_CHECK(!thal_parse(&b, text, len - 3, err, sizeof err));
    TH_CHECK(manual_example());
    free(text);
    thal_free(&a);
    thal_free(&b);
}

int main(void)
{
    TH_RUN(test_c_round_trip);
    return th_test_finish();
}
