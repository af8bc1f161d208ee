/* Tests for tinyheaders/th_atlas.h: the manifest format round trip, rejection of damaged files,
   ids equal to the contract's game_sprite_id, the source-list comparison used by the packer cache. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"
#include "game_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <string>

/* The manual's example, compiled. */
static int manual_example(const char *path)
{
    int errors = 0;
    /* EXAMPLE BEGIN */
    thal_manifest m;
    char err[256];
    thal_init(&m);
    if (!thal_load(&m, path, err, sizeof err)) printf("atlas: %s\n", err);
    for (int i = 0; i < m.sprite_count; i++)
        if (m.sprites[i].error) printf("%s: %s\n", m.sprites[i].file, m.sprites[i].reason);
    /* EXAMPLE END */
    for (int i = 0; i < m.sprite_count; i++) errors += m.sprites[i].error;
    thal_free(&m);
    return errors;
}

static void fill(thal_manifest *m)
{
    thal_init(m);
    m->page_max = 512;
    m->padding = 1;
    thal_page *p = thal_add_page(m);
    p->w = 100; p->h = 60; p->hash = 0x0123456789abcdefull;
    snprintf(p->file, sizeof p->file, "atlas_0.png");
    thal_sprite *s = thal_add_sprite(m);
    snprintf(s->name, sizeof s->name, "player/idle run");
    snprintf(s->file, sizeof s->file, "player/idle run.png");
    s->id = thal_id(s->name); s->page = 0; s->x = 1; s->y = 2; s->w = 30; s->h = 40;
    s->pivot_x = 0.5f; s->pivot_y = 1.0f;
    s = thal_add_sprite(m);
    snprintf(s->name, sizeof s->name, "bad");
    snprintf(s->file, sizeof s->file, "bad.png");
    snprintf(s->reason, sizeof s->reason, "cannot decode: bad png sig");
    s->id = thal_id(s->name); s->error = 1;
    thal_source *src = thal_add_source(m);
    src->size = 1234; src->mtime_ns = 1700000000123456789ll;
    snprintf(src->path, sizeof src->path, "player/idle run.png");
}

static void test_ids_match_contract(void)
{
    const char *names[] = { "player/idle", "a", "", "tiles/grass_01", "ünïcödé/名前" };
    for (const char *n : names) TH_CHECK_EQ_INT(thal_id(n), game_sprite_id(n));
    TH_CHECK(thal_id("") != 0);
}

static void test_round_trip(void)
{
    thal_manifest a, b;
    fill(&a);
    thal_init(&b);
    size_t len = 0;
    char *text = thal_format(&a, &len);
    TH_CHECK(text != NULL);
    char err[256] = "";
    TH_CHECK_MSG(thal_parse(&b, text, len, err, sizeof err), "%s", err);
    TH_CHECK_EQ_INT(b.page_count, 1);
    TH_CHECK_EQ_INT(b.sprite_count, 2);
    TH_CHECK_EQ_INT(b.source_count, 1);
    TH_CHECK_EQ_INT(b.page_max, 512);
    TH_CHECK(b.pages[0].hash == 0x0123456789abcdefull);
    const thal_sprite *s = thal_find(&b, thal_id("player/idle run"));
    TH_CHECK(s && !s->error && s->x == 1 && s->y == 2 && s->w == 30 && s->h == 40 && s->pivot_y == 1.0f);
    TH_CHECK(s && !strcmp(s->file, "player/idle run.png"));
    const thal_sprite *e = thal_find(&b, thal_id("bad"));
    TH_CHECK(e && e->error && !strcmp(e->reason, "cannot decode: bad png sig") && !strcmp(e->file, "bad.png"));
    TH_CHECK(thal_same_sources(&a, &b));
    b.sources[0].mtime_ns++;
    TH_CHECK(!thal_same_sources(&a, &b));
    b.sources[0].mtime_ns--;
    b.padding = 2;
    TH_CHECK(!thal_same_sources(&a, &b));
    free(text);
    thal_free(&a);
    thal_free(&b);
}

static void test_rejects_damage(void)
{
    thal_manifest a, b;
    fill(&a);
    thal_init(&b);
    size_t len = 0;
    char *text = thal_format(&a, &len);
    std::string good(text, len);
    free(text);
    thal_free(&a);
    char err[256];
    /* every proper prefix that cuts the end line off is refused as truncated */
    int accepted = 0;
    for (size_t n = 0; n + 1 < good.size(); n++) accepted += thal_parse(&b, good.data(), n, err, sizeof err);
    TH_CHECK_EQ_INT(accepted, 0);
    TH_CHECK(!thal_parse(&b, good.data(), good.size() - 8, err, sizeof err) && strstr(err, "truncated"));
    struct { const char *from, *to, *why; } edits[] = {
        { "th_atlas\t1", "th_atlas\t9", "version" },
        { "th_atlas\t1", "PNG", "th_atlas" },
        { "sprite\t", "sprite\tzz\t", "sprite" },
        { "\t30\t40\t", "\t30\t-4\t", "sprite" },
        { "\t30\t40\t", "\t300\t40\t", "outside" },
        { "page\t0", "page\t1", "order" },
        { "end\t5", "end\t6", "records" },
        { "source\t1234", "source\tabc", "source" },
        { "error\t", "bogus\t", "unknown" },
    };
    for (auto &ed : edits) {
        std::string t = good;
        size_t at = t.find(ed.from);
        TH_CHECK_MSG(at != std::string::npos, "no '%s' in the manifest", ed.from);
        if (at == std::string::npos) continue;
        t.replace(at, strlen(ed.from), ed.to);
        err[0] = 0;
        TH_CHECK_MSG(!thal_parse(&b, t.data(), t.size(), err, sizeof err), "accepted an edit: %s", ed.to);
        TH_CHECK_MSG(strstr(err, ed.why) != NULL, "reason '%s' does not mention '%s'", err, ed.why);
        TH_CHECK_EQ_INT(b.sprite_count, 0);
    }
    /* comments, blank lines and CRLF are fine */
    std::string crlf;
    for (char c : good) { if (c == '\n') crlf += "\r\n"; else crlf += c; }
    crlf = "\n# hello\n" + crlf;
    TH_CHECK_MSG(thal_parse(&b, crlf.data(), crlf.size(), err, sizeof err), "%s", err);
    TH_CHECK_EQ_INT(b.sprite_count, 2);
    crlf = good.substr(0, good.find('\n') + 1) + "# note\n\n" + good.substr(good.find('\n') + 1);
    TH_CHECK_MSG(thal_parse(&b, crlf.data(), crlf.size(), err, sizeof err), "%s", err);
    thal_free(&b);
}

static void test_save_load_and_example(void)
{
    char dir[] = "/tmp/th_atlas_test_XXXXXX";
    TH_CHECK(mkdtemp(dir) != NULL);
    std::string path = std::string(dir) + "/atlas.txt";
    thal_manifest a, b;
    fill(&a);
    thal_init(&b);
    snprintf(a.sprites[0].name, sizeof a.sprites[0].name, "tab\there");
    a.sprites[0].id = thal_id("tab here");
    char err[256];
    TH_CHECK_MSG(thal_save(&a, path.c_str(), err, sizeof err), "%s", err);
    TH_CHECK(access((path + ".tmp").c_str(), F_OK) != 0);
    TH_CHECK_MSG(thal_load(&b, path.c_str(), err, sizeof err), "%s", err);
    TH_CHECK(thal_find(&b, thal_id("tab here")) != NULL);
    TH_CHECK_EQ_INT(manual_example(path.c_str()), 1);
    TH_CHECK(!thal_load(&b, (std::string(dir) + "/missing.txt").c_str(), err, sizeof err) && strstr(err, "cannot open"));
    TH_CHECK_EQ_INT(manual_example((std::string(dir) + "/missing.txt").c_str()), 0);
    remove(path.c_str());
    rmdir(dir);
    thal_free(&a);
    thal_free(&b);
}

static void test_hash_sees_every_byte(void)
{
    unsigned char buf[37];
    for (int i = 0; i < 37; i++) buf[i] = (unsigned char)i;
    uint64_t h = thal_hash(buf, sizeof buf, 0);
    int same = 0;
    for (int i = 0; i < 37; i++) {
        buf[i] ^= 1;
        same += thal_hash(buf, sizeof buf, 0) == h;
        buf[i] ^= 1;
    }
    TH_CHECK_EQ_INT(same, 0);
    TH_CHECK(thal_hash(buf, sizeof buf, 1) != h);
    TH_CHECK(thal_hash(buf, 36, 0) != h);
}

int main(void)
{
    TH_RUN(test_ids_match_contract);
    TH_RUN(test_round_trip);
    TH_RUN(test_rejects_damage);
    TH_RUN(test_save_load_and_example);
    TH_RUN(test_hash_sees_every_byte);
    return th_test_finish();
}
