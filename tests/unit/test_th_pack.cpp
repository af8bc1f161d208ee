/* Tests for tinyheaders/th_pack.h: round trips, the name rules, and a reader that refuses every damaged
   archive it is shown - truncations, appended bytes, every single-byte flip, and hand-made indexes whose
   offsets, sizes and names lie (with their checks recomputed so only the lie is left to catch). */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_PACK_IMPLEMENTATION
#include "th_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <string>
#include <vector>

static std::string g_dir;

/* The manual's example, compiled; returns the size it read back. */
static size_t manual_example(const char *path)
{
    size_t got = 0;
    /* EXAMPLE BEGIN */
    thpk_writer w;
    thpk_archive a;
    char err[256];
    size_t n = 0;
    thpk_writer_init(&w);
    thpk_writer_add(&w, "atlas.txt", "th_atlas 1\n", 11, err, sizeof err);
    if (!thpk_writer_save(&w, path, err, sizeof err)) printf("pack: %s\n", err);
    thpk_writer_free(&w);

    if (thpk_open_file(&a, path, err, sizeof err)) {
        int i = thpk_find(&a, "atlas.txt");
        const void *bytes = i >= 0 ? thpk_get(&a, i, &n, err, sizeof err) : NULL;
        if (bytes) printf("atlas.txt: %u bytes\n", (unsigned)n);
        thpk_close(&a);
    } else printf("%s: %s\n", path, err);
    /* EXAMPLE END */
    got = n;
    return got;
}

struct File { std::string name; std::vector<uint8_t> data; };

static std::vector<File> sample_files(void)
{
    std::vector<File> f;
    f.push_back({ "sprites/atlas_1.png", {} });
    for (int i = 0; i < 3000; i++) f.back().data.push_back((uint8_t)(i * 7 + (i >> 5)));
    f.push_back({ "atlas.txt", { 't', 'h', '_', 'a', 't', 'l', 'a', 's', ' ', '1', '\n' } });
    f.push_back({ "empty", {} });
    f.push_back({ "fonts/default.ttf", { 0, 1, 0, 0, 0, 0xFF, 0x80 } });
    f.push_back({ "sprites/atlas_0.png", { 0x89, 'P', 'N', 'G' } });
    f.push_back({ "z/ünïcödé name.bin", { 1, 2, 3 } });
    return f;
}

static std::vector<uint8_t> build(const std::vector<File> &files)
{
    thpk_writer w;
    thpk_writer_init(&w);
    char err[256];
    for (const File &f : files)
        if (!thpk_writer_add(&w, f.name.c_str(), f.data.data(), f.data.size(), err, sizeof err)) printf("add: %s\n", err);
    size_t n = 0;
    uint8_t *bytes = (uint8_t *)thpk_writer_build(&w, &n, err, sizeof err);
    std::vector<uint8_t> out(bytes, bytes + (bytes ? n : 0));
    free(bytes);
    thpk_writer_free(&w);
    return out;
}

/* Every file comes back byte for byte; nothing else is in the archive. */
static bool holds_exactly(const thpk_archive *a, const std::vector<File> &files)
{
    if (a->count != files.size()) return false;
    for (const File &f : files) {
        int i = thpk_find(a, f.name.c_str());
        if (i < 0 || strcmp(thpk_name(a, i), f.name.c_str()) != 0 || thpk_size(a, i) != f.data.size()) return false;
        size_t n = 99;
        char err[256] = "";
        const uint8_t *p = (const uint8_t *)thpk_get(a, i, &n, err, sizeof err);
        if (!p || n != f.data.size() || (n && memcmp(p, f.data.data(), n) != 0)) return false;
    }
    return true;
}

static void test_round_trip(void)
{
    std::vector<File> files = sample_files();
    std::vector<uint8_t> bytes = build(files);
    thpk_archive a;
    char err[256] = "";
    TH_CHECK_MSG(thpk_open_memory(&a, bytes.data(), bytes.size(), err, sizeof err), "%s", err);
    TH_CHECK(holds_exactly(&a, files));
    /* names come out sorted whatever order they went in, data aligned to 16 */
    for (uint32_t i = 1; i < a.count; i++) TH_CHECK(strcmp(thpk_name(&a, (int)i - 1), thpk_name(&a, (int)i)) < 0);
    for (uint32_t i = 0; i < a.count; i++) {
        size_t n;
        const uint8_t *p = (const uint8_t *)thpk_get(&a, (int)i, &n, NULL, 0);
        TH_CHECK(p && (size_t)(p - bytes.data()) % THPK_ALIGN == 0);
    }
    TH_CHECK(thpk_find(&a, "atlas") == -1);
    TH_CHECK(thpk_find(&a, "atlas.txt.") == -1);
    TH_CHECK(thpk_find(&a, "") == -1);
    TH_CHECK(thpk_find(&a, NULL) == -1);
    TH_CHECK(thpk_name(&a, -1) == NULL && thpk_name(&a, (int)a.count) == NULL);
    TH_CHECK(thpk_get(&a, (int)a.count, NULL, err, sizeof err) == NULL && strstr(err, "no entry"));
    thpk_close(&a);

    /* the same files in another order make the same bytes */
    std::vector<File> rev(files.rbegin(), files.rend());
    TH_CHECK(build(rev) == bytes);

    /* an empty archive is an archive */
    std::vector<uint8_t> none = build({});
    TH_CHECK_EQ_INT(none.size(), THPK_HEADER_BYTES);
    TH_CHECK(thpk_open_memory(&a, none.data(), none.size(), err, sizeof err) && a.count == 0 && thpk_find(&a, "x") == -1);
}

static void test_files_on_disk(void)
{
    std::string path = g_dir + "/manual.pak";
    TH_CHECK_EQ_INT(manual_example(path.c_str()), 11);
    TH_CHECK(access((path + ".tmp").c_str(), F_OK) != 0);     /* the temporary name is gone */

    /* add_file reads what is on disk */
    std::string src = g_dir + "/src.bin";
    FILE *f = fopen(src.c_str(), "wb");
    fwrite("hello", 1, 5, f);
    fclose(f);
    thpk_writer w;
    thpk_writer_init(&w);
    char err[256] = "";
    TH_CHECK(thpk_writer_add_file(&w, "a/hello.txt", src.c_str(), err, sizeof err));
    TH_CHECK(!thpk_writer_add_file(&w, "b", (g_dir + "/missing").c_str(), err, sizeof err) && strstr(err, "missing") && strstr(err, "cannot open"));
    std::string out = g_dir + "/two.pak";
    TH_CHECK(thpk_writer_save(&w, out.c_str(), err, sizeof err));
    TH_CHECK(thpk_writer_save(&w, out.c_str(), err, sizeof err));           /* replaces an existing file */
    TH_CHECK(!thpk_writer_save(&w, (g_dir + "/no/such/dir.pak").c_str(), err, sizeof err) && strstr(err, "cannot create"));
    thpk_writer_free(&w);
    thpk_archive a;
    TH_CHECK(thpk_open_file(&a, out.c_str(), err, sizeof err));
    TH_CHECK(holds_exactly(&a, { { "a/hello.txt", { 'h', 'e', 'l', 'l', 'o' } } }));
    TH_CHECK(a.owned != NULL);
    thpk_close(&a);
    TH_CHECK(a.count == 0 && a.owned == NULL);

    TH_CHECK(!thpk_open_file(&a, (g_dir + "/missing.pak").c_str(), err, sizeof err) && strstr(err, "cannot open"));
    TH_CHECK(!thpk_open_file(&a, src.c_str(), err, sizeof err) && strstr(err, "header"));
}

static void test_names(void)
{
    const char *good[] = { "a", "atlas.txt", "fonts/default.ttf", "a/b/c/d.e", ".hidden", "a/.b", "...", "a..b/c", "名前/ü" };
    const char *bad[] = { "", "/abs", "a//b", "a/", "..", "../x", "a/../b", "a/./b", ".", "./a", "a/.", "a\\b", "c:\\x", "tab\there", "nl\n", "del\x7f" };
    for (const char *n : good) TH_CHECK_MSG(thpk_name_valid(n, strlen(n)), "'%s' should be valid", n);
    for (const char *n : bad) TH_CHECK_MSG(!thpk_name_valid(n, strlen(n)), "'%s' should be refused", n);
    TH_CHECK(!thpk_name_valid("a\0b", 3));
    TH_CHECK(!thpk_name_valid(NULL, 0));
    std::string longest(THPK_NAME_MAX - 1, 'x'), too_long(THPK_NAME_MAX, 'x');
    TH_CHECK(thpk_name_valid(longest.c_str(), longest.size()));
    TH_CHECK(!thpk_name_valid(too_long.c_str(), too_long.size()));

    thpk_writer w;
    thpk_writer_init(&w);
    char err[256] = "";
    TH_CHECK(!thpk_writer_add(&w, "../etc/passwd", "x", 1, err, sizeof err) && strstr(err, "../etc/passwd") && strstr(err, "not a valid"));
    TH_CHECK(!thpk_writer_add(&w, NULL, "x", 1, err, sizeof err));
    TH_CHECK(thpk_writer_add(&w, "same", "x", 1, err, sizeof err));
    TH_CHECK(!thpk_writer_add(&w, "same", "y", 1, err, sizeof err) && strstr(err, "twice"));
    TH_CHECK_EQ_INT(w.count, 1);
    thpk_writer_free(&w);
}

/* The hash is part of the format: pinned so a change cannot slip by as "still round-trips". */
static void test_hash_pinned(void)
{
    TH_CHECK(thpk_hash("", 0, 0) == thpk_hash("", 0, 0));
    TH_CHECK(thpk_hash("abcdefghij", 10, 0) != thpk_hash("abcdefghik", 10, 0));
    TH_CHECK(thpk_hash("abcdefghij", 10, 0) != thpk_hash("abcdefghij", 10, 1));
    TH_CHECK(thpk_hash("abc", 3, 0) != thpk_hash("abc\0", 4, 0));
    char h[32];
    snprintf(h, sizeof h, "%016llx", (unsigned long long)thpk_hash("abcdefghij", 10, 0));
    TH_CHECK_MSG(strcmp(h, "19985d0c279480a5") == 0, "thpk_hash(\"abcdefghij\") = %s", h);
    /* and the start of a known archive */
    std::vector<uint8_t> one = build({ { "a", { 'x' } } });
    const uint8_t head[16] = { 'T', 'H', 'P', 'K', '\r', '\n', 0x1A, '\n', 1, 0, 0, 0, 1, 0, 0, 0 };
    TH_CHECK(one.size() == 32 + 32 + 2 + 14 + 1 && memcmp(one.data(), head, 16) == 0);
}

static void test_truncated_and_appended(void)
{
    std::vector<uint8_t> bytes = build(sample_files());
    thpk_archive a;
    char err[256];
    for (size_t n = 0; n < bytes.size(); n++) {
        err[0] = 0;
        TH_CHECK_MSG(!thpk_open_memory(&a, bytes.data(), n, err, sizeof err) && err[0], "prefix of %u bytes accepted", (unsigned)n);
    }
    std::vector<uint8_t> more = bytes;
    more.push_back(0);
    TH_CHECK(!thpk_open_memory(&a, more.data(), more.size(), err, sizeof err) && strstr(err, "appended"));
    TH_CHECK(!thpk_open_memory(&a, NULL, 0, err, sizeof err));
}

/* Flip each bit of each byte: the archive is refused, or the touched file is refused when asked for,
   or (a flip in padding) everything still reads back exactly. Never wrong bytes handed out. */
static void test_every_flip(void)
{
    std::vector<File> files = sample_files();
    std::vector<uint8_t> bytes = build(files);
    int refused_open = 0, refused_get = 0, harmless = 0, wrong = 0;
    for (size_t pos = 0; pos < bytes.size(); pos++) {
        for (int bit = 0; bit < 8; bit += (pos < 200 ? 1 : 3)) {
            std::vector<uint8_t> d = bytes;
            d[pos] ^= (uint8_t)(1u << bit);
            thpk_archive a;
            char err[256] = "";
            if (!thpk_open_memory(&a, d.data(), d.size(), err, sizeof err)) { refused_open += err[0] != 0; continue; }
            bool any_refused = false, all_right = true;
            for (const File &f : files) {
                int i = thpk_find(&a, f.name.c_str());
                if (i < 0) { all_right = false; continue; }
                size_t n;
                const uint8_t *p = (const uint8_t *)thpk_get(&a, i, &n, err, sizeof err);
                if (!p) { any_refused = true; TH_CHECK(strstr(err, "damaged") != NULL); continue; }
                if (n != f.data.size() || (n && memcmp(p, f.data.data(), n) != 0)) all_right = false;
            }
            if (!all_right) wrong++;
            else if (any_refused) refused_get++;
            else harmless++;
        }
    }
    TH_CHECK_EQ_INT(wrong, 0);
    TH_CHECK(refused_open > 0 && refused_get > 0);
    printf("  flips: %d refused at open, %d refused at get, %d in padding\n", refused_open, refused_get, harmless);
}

/* Hand-made lies with the index check recomputed, so only the lie itself can give them away. */
static void fix_checks(std::vector<uint8_t> &d)
{
    uint32_t index_bytes = thpk__r32(d.data() + 16);
    if (32 + (size_t)index_bytes <= d.size()) thpk__w32(d.data() + 20, (uint32_t)thpk_hash(d.data() + 32, index_bytes, 0));
    thpk__w64(d.data() + 24, d.size());
}

static bool refused(std::vector<uint8_t> d, const char *want)
{
    fix_checks(d);
    thpk_archive a;
    char err[256] = "";
    int ok = thpk_open_memory(&a, d.data(), d.size(), err, sizeof err);
    if (!ok && !strstr(err, want)) printf("  refused, but said: %s (wanted '%s')\n", err, want);
    return !ok && strstr(err, want);
}

static void test_lying_index(void)
{
    std::vector<uint8_t> base = build(sample_files());
    {   /* the control: recomputing checks on an honest archive changes nothing */
        std::vector<uint8_t> d = base;
        fix_checks(d);
        TH_CHECK(d == base);
    }
    uint8_t *e0 = NULL;
    const size_t E = 32;   /* entry 0 starts here; entry 1 at E + 32 */
    std::vector<uint8_t> d;
#define LIE(code, want) do { d = base; e0 = d.data() + E; (void)e0; code; TH_CHECK_MSG(refused(d, want), "%s", #code); } while (0)
    LIE(thpk__w64(e0, d.size()), "run past the end");                              /* offset at the end, size > 0 */
    LIE(thpk__w64(e0, 0xFFFFFFFFFFFFFFF0ull), "run past the end");                 /* offset far away */
    LIE(thpk__w64(e0 + 8, 0xFFFFFFFFFFFFFFFFull), "run past the end");             /* offset + size wraps */
    LIE(thpk__w64(e0 + 8, d.size()), "run past the end");
    LIE(thpk__w64(e0, 0), "overlaps");                                             /* data inside the header */
    LIE(thpk__w64(e0, 40), "overlaps");                                            /* data inside the index */
    LIE(thpk__w64(e0 + 32, thpk__r64(e0)), "overlaps");                            /* two files share bytes */
    LIE(thpk__w32(e0 + 24, 0xFFFFFFF0u), "name outside");                          /* name offset far away */
    LIE(thpk__w32(e0 + 28, 0xFFFFFFFFu), "name outside");                          /* name length wraps */
    LIE(thpk__w32(e0 + 28, thpk__r32(e0 + 28) + 1), "bad name");                   /* name not NUL-terminated */
    LIE(thpk__w32(e0 + 28, 0), "bad name");                                        /* empty name */
    LIE((thpk__w32(e0 + 32 + 24, thpk__r32(e0 + 24)), thpk__w32(e0 + 32 + 28, thpk__r32(e0 + 28))), "out of order or repeated"); /* same name twice */
    LIE((thpk__w32(e0 + 24, thpk__r32(e0 + 32 + 24)), thpk__w32(e0 + 28, thpk__r32(e0 + 32 + 28))), "out of order or repeated"); /* 0 after 1 */
    LIE(thpk__w32(d.data() + 12, 1000), "do not fit");                             /* more entries than the index holds */
    LIE(thpk__w32(d.data() + 16, 0xFFFFFFF0u), "past the end");                    /* index bigger than the file */
    LIE(d[8] = 2, "version 2");
    LIE(d[0] = 'X', "magic");
#undef LIE
    {   /* a name table entry rewritten to "../x" with a matching length */
        d = base;
        uint32_t noff = thpk__r32(d.data() + E + 24);
        char *name = (char *)d.data() + 32 + 6 * 32 + noff;
        memcpy(name, "../x", 4);
        name[4] = 0;
        thpk__w32(d.data() + E + 28, 4);
        TH_CHECK(refused(d, "bad name"));
    }
}

int main(void)
{
    char tmpl[] = "/tmp/test_th_pack.XXXXXX";
    if (!mkdtemp(tmpl)) { perror("mkdtemp"); return 1; }
    g_dir = tmpl;
    TH_RUN(test_round_trip);
    TH_RUN(test_files_on_disk);
    TH_RUN(test_names);
    TH_RUN(test_hash_pinned);
    TH_RUN(test_truncated_and_appended);
    TH_RUN(test_every_flip);
    TH_RUN(test_lying_index);
    int rc = th_test_finish();
    if (system(("rm -rf '" + g_dir + "'").c_str()) != 0) {}
    return rc;
}
