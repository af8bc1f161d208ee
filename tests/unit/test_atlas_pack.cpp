/* Tests for tools/atlas_pack (the built binary, build/tools/atlas_pack): every sprite placed inside
   its page without overlap, pixels copied exactly with extruded borders, pivots, bad PNGs reported
   and listed, the no-op cache, rewriting only changed pages, stale pages removed. */
#define TH_TEST_IMPLEMENTATION
#include "th_test.h"
#define TH_ATLAS_IMPLEMENTATION
#include "th_atlas.h"
#include "game_api.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <map>
#include <string>
#include <vector>

static std::string g_root, g_packer, g_tmp;

struct Pic {
    int w = 0, h = 0;
    std::vector<unsigned char> px;
};
static std::map<std::string, Pic> g_pics;   /* name -> pixels written */

static std::string read_text(const std::string &path)
{
    std::string s;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return s;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

static void write_text(const std::string &path, const std::string &text)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f) return;
    fwrite(text.data(), 1, text.size(), f);
    fclose(f);
}

static void mkdirs(const std::string &path)
{
    for (size_t i = 1; i <= path.size(); i++)
        if (i == path.size() || path[i] == '/') mkdir(path.substr(0, i).c_str(), 0755);
}

static void write_png(const std::string &name, int w, int h, unsigned seed)
{
    Pic p;
    p.w = w; p.h = h;
    p.px.resize((size_t)w * h * 4);
    for (size_t i = 0; i < p.px.size(); i++) { seed = seed * 1103515245u + 12345u; p.px[i] = (unsigned char)(seed >> 16); }
    std::string path = g_tmp + "/src/" + name + ".png";
    mkdirs(path.substr(0, path.rfind('/')));
    TH_CHECK(stbi_write_png(path.c_str(), w, h, 4, p.px.data(), w * 4));
    g_pics[name] = p;
}

struct Run { int status; std::string out, err; };

static Run pack(const std::string &extra = "")
{
    std::string cmd = "'" + g_packer + "' " + extra + " '" + g_tmp + "/src' '" + g_tmp + "/out' > '" + g_tmp + "/stdout.txt' 2> '" + g_tmp + "/stderr.txt'";
    int rc = system(cmd.c_str());
    Run r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    r.out = read_text(g_tmp + "/stdout.txt");
    r.err = read_text(g_tmp + "/stderr.txt");
    return r;
}

static int64_t mtime_ns(const std::string &path)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return -1;
    return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

/* Loads the manifest and checks every sprite against what was written. */
static void verify(thal_manifest *m, int expect_sprites)
{
    char err[256] = "";
    TH_CHECK_MSG(thal_load(m, (g_tmp + "/out/atlas.txt").c_str(), err, sizeof err), "manifest: %s", err);
    std::vector<Pic> pages((size_t)m->page_count);
    for (int p = 0; p < m->page_count; p++) {
        int n = 0;
        unsigned char *d = stbi_load((g_tmp + "/out/" + m->pages[p].file).c_str(), &pages[(size_t)p].w, &pages[(size_t)p].h, &n, 4);
        TH_CHECK_MSG(d != NULL, "page %d does not decode", p);
        if (!d) return;
        TH_CHECK_EQ_INT(pages[(size_t)p].w, m->pages[p].w);
        TH_CHECK_EQ_INT(pages[(size_t)p].h, m->pages[p].h);
        int on_page = 0;
        for (int i = 0; i < m->sprite_count; i++) on_page += !m->sprites[i].error && m->sprites[i].page == p;
        TH_CHECK_MSG((m->pages[p].w <= m->page_max && m->pages[p].h <= m->page_max) || on_page == 1,
                     "page %d is %dx%d with %d sprites", p, m->pages[p].w, m->pages[p].h, on_page);
        TH_CHECK((m->pages[p].w & (m->pages[p].w - 1)) == 0 && (m->pages[p].h & (m->pages[p].h - 1)) == 0);
        pages[(size_t)p].px.assign(d, d + (size_t)pages[(size_t)p].w * pages[(size_t)p].h * 4);
        stbi_image_free(d);
    }
    int good = 0, pad = m->padding;
    for (int i = 0; i < m->sprite_count; i++) {
        const thal_sprite &s = m->sprites[i];
        TH_CHECK_EQ_INT(s.id, game_sprite_id(s.name));
        if (s.error) continue;
        good++;
        auto it = g_pics.find(s.name);
        TH_CHECK_MSG(it != g_pics.end(), "unexpected sprite %s", s.name);
        if (it == g_pics.end()) continue;
        const Pic &src = it->second;
        TH_CHECK_EQ_INT(s.w, src.w);
        TH_CHECK_EQ_INT(s.h, src.h);
        TH_CHECK(s.page >= 0 && s.page < m->page_count);
        if (s.page < 0 || s.page >= m->page_count) continue;
        const Pic &pg = pages[(size_t)s.page];
        TH_CHECK_MSG(s.x - pad >= 0 && s.y - pad >= 0 && s.x + s.w + pad <= pg.w && s.y + s.h + pad <= pg.h, "%s outside its page", s.name);
        if (!(s.x - pad >= 0 && s.y - pad >= 0 && s.x + s.w + pad <= pg.w && s.y + s.h + pad <= pg.h)) continue;
        int bad = 0;
        for (int y = -pad; y < s.h + pad; y++)
            for (int x = -pad; x < s.w + pad; x++) {
                int sx = x < 0 ? 0 : x >= s.w ? s.w - 1 : x, sy = y < 0 ? 0 : y >= s.h ? s.h - 1 : y;
                bad += memcmp(&pg.px[((size_t)(s.y + y) * pg.w + s.x + x) * 4], &src.px[((size_t)sy * src.w + sx) * 4], 4) != 0;
            }
        TH_CHECK_MSG(bad == 0, "%s: %d pixels differ (interior + extruded border)", s.name, bad);
        for (int j = 0; j < i; j++) {
            const thal_sprite &o = m->sprites[j];
            if (o.error || o.page != s.page) continue;
            bool apart = s.x + s.w + pad <= o.x - pad || o.x + o.w + pad <= s.x - pad ||
                         s.y + s.h + pad <= o.y - pad || o.y + o.h + pad <= s.y - pad;
            TH_CHECK_MSG(apart, "%.200s overlaps %.200s", s.name, o.name);
        }
    }
    TH_CHECK_EQ_INT(good, expect_sprites);
}

static void test_pack_and_verify(void)
{
    write_png("hero/idle", 17, 9, 1);
    write_png("hero/run 2", 32, 32, 2);
    write_png("deep/a/b/dot", 1, 1, 3);
    write_png("wide", 200, 12, 4);
    write_png("huge", 300, 40, 5);   /* wider than a 256 page: a page of its own */
    srand(99);
    for (int i = 0; i < 60; i++) write_png("many/m" + std::to_string(i), 1 + rand() % 70, 1 + rand() % 70, 100u + (unsigned)i);
    write_text(g_tmp + "/src/hero/idle.pivot", "0.25 1\n");
    write_text(g_tmp + "/src/broken.png", "this is not a png at all");
    write_text(g_tmp + "/src/empty.png", "");
    write_text(g_tmp + "/src/notes.txt", "ignored");
    write_text(g_tmp + "/src/.hidden.png", "ignored");
    Run r = pack("--page-size 256");
    TH_CHECK_EQ_INT(r.status, 0);
    thal_manifest m;
    thal_init(&m);
    verify(&m, 65);
    TH_CHECK_MSG(m.page_count >= 3, "expected several 256px pages, got %d", m.page_count);
    const thal_sprite *huge = thal_find(&m, game_sprite_id("huge"));
    TH_CHECK(huge && !huge->error && huge->page == m.page_count - 1 && m.pages[m.page_count - 1].w == 512 && m.pages[m.page_count - 1].h == 64);
    TH_CHECK(r.out.find("65 images decoded") != std::string::npos);
    const thal_sprite *idle = thal_find(&m, game_sprite_id("hero/idle"));
    TH_CHECK(idle && idle->pivot_x == 0.25f && idle->pivot_y == 1.0f);
    const thal_sprite *run = thal_find(&m, game_sprite_id("hero/run 2"));
    TH_CHECK(run && run->pivot_x == 0.5f && run->pivot_y == 0.5f);
    const thal_sprite *broken = thal_find(&m, game_sprite_id("broken"));
    TH_CHECK(broken && broken->error && broken->reason[0] && !strcmp(broken->file, "broken.png"));
    const thal_sprite *empty = thal_find(&m, game_sprite_id("empty"));
    TH_CHECK(empty && empty->error);
    TH_CHECK(thal_find(&m, game_sprite_id(".hidden")) == NULL);
    /* one stderr line per bad image, naming the file and the reason */
    std::string want = "atlas_pack: " + g_tmp + "/src/broken.png: ";
    TH_CHECK_MSG(r.err.find(want) != std::string::npos, "stderr was: %s", r.err.c_str());
    TH_CHECK(broken && r.err.find(broken->reason) != std::string::npos);
    int lines = 0;
    for (char c : r.err) lines += c == '\n';
    TH_CHECK_EQ_INT(lines, 2);
    TH_CHECK(access((g_tmp + "/out/atlas.txt.tmp").c_str(), F_OK) != 0);
    thal_free(&m);
}

static void test_unchanged_input_is_a_no_op(void)
{
    std::string man = g_tmp + "/out/atlas.txt", page0 = g_tmp + "/out/atlas_0.png";
    int64_t m0 = mtime_ns(man), p0 = mtime_ns(page0);
    usleep(20000);
    Run r = pack("--page-size 256");
    TH_CHECK_EQ_INT(r.status, 0);
    TH_CHECK_MSG(r.out.find("up to date") != std::string::npos, "stdout: %s", r.out.c_str());
    TH_CHECK(mtime_ns(man) == m0);
    TH_CHECK(mtime_ns(page0) == p0);
    /* a different setting is a change */
    r = pack("--page-size 512");
    TH_CHECK(r.out.find("up to date") == std::string::npos);
    r = pack("--page-size 256");
    TH_CHECK(r.out.find("up to date") == std::string::npos);
}

static void test_only_changed_page_rewritten(void)
{
    thal_manifest m;
    thal_init(&m);
    char err[256];
    TH_CHECK(thal_load(&m, (g_tmp + "/out/atlas.txt").c_str(), err, sizeof err));
    const thal_sprite *s = thal_find(&m, game_sprite_id("hero/run 2"));
    TH_CHECK(s != NULL);
    if (!s) return;
    int page = s->page, x = s->x, y = s->y;
    std::vector<int64_t> before;
    for (int p = 0; p < m.page_count; p++) before.push_back(mtime_ns(g_tmp + "/out/" + m.pages[p].file));
    usleep(20000);
    write_png("hero/run 2", 32, 32, 777);   /* same size, new pixels */
    Run r = pack("--page-size 256");
    TH_CHECK_EQ_INT(r.status, 0);
    thal_manifest n;
    thal_init(&n);
    verify(&n, 65);
    TH_CHECK_MSG(r.out.find("(1 written, 1 images decoded)") != std::string::npos, "stdout: %s", r.out.c_str());
    const thal_sprite *t = thal_find(&n, game_sprite_id("hero/run 2"));
    TH_CHECK(t && t->page == page && t->x == x && t->y == y);
    TH_CHECK_EQ_INT(n.page_count, m.page_count);
    for (int p = 0; p < n.page_count && p < m.page_count; p++) {
        bool changed = mtime_ns(g_tmp + "/out/" + n.pages[p].file) != before[(size_t)p];
        TH_CHECK_MSG(changed == (p == page), "page %d %s", p, changed ? "rewritten" : "not rewritten");
        TH_CHECK_EQ_INT(n.pages[p].hash != m.pages[p].hash, p == page);
    }
    thal_free(&m);
    thal_free(&n);
}

static void test_fixed_image_comes_back(void)
{
    write_png("broken", 5, 6, 42);
    Run r = pack("--page-size 256");
    TH_CHECK_EQ_INT(r.status, 0);
    TH_CHECK_MSG(r.err.find("broken.png") == std::string::npos, "stderr: %s", r.err.c_str());
    thal_manifest m;
    thal_init(&m);
    verify(&m, 66);
    const thal_sprite *b = thal_find(&m, game_sprite_id("broken"));
    TH_CHECK(b && !b->error);
    thal_free(&m);
}

static void test_damaged_cache_is_ignored(void)
{
    write_text(g_tmp + "/out/atlas.cache", "THACACHE\x05\x00\x00\x00garbage");
    write_png("hero/run 2", 32, 32, 778);
    Run r = pack("--page-size 256");
    TH_CHECK_EQ_INT(r.status, 0);
    TH_CHECK_MSG(r.out.find("66 images decoded") != std::string::npos, "stdout: %s", r.out.c_str());
    thal_manifest m;
    thal_init(&m);
    verify(&m, 66);
    write_png("hero/run 2", 32, 32, 779);
    r = pack("--page-size 256 --no-cache");
    TH_CHECK(r.out.find("66 images decoded") != std::string::npos);
    verify(&m, 66);
    thal_free(&m);
}

static void test_stale_pages_removed_and_empty_source(void)
{
    std::string cmd = "rm -rf '" + g_tmp + "/src/many' '" + g_tmp + "/src/wide.png' '" + g_tmp + "/src/huge.png'";
    TH_CHECK(system(cmd.c_str()) == 0);
    for (int i = 0; i < 60; i++) g_pics.erase("many/m" + std::to_string(i));
    g_pics.erase("wide");
    g_pics.erase("huge");
    Run r = pack("--page-size 256");
    TH_CHECK_EQ_INT(r.status, 0);
    thal_manifest m;
    thal_init(&m);
    verify(&m, 4);
    TH_CHECK_EQ_INT(m.page_count, 1);
    TH_CHECK(access((g_tmp + "/out/atlas_1.png").c_str(), F_OK) != 0);
    /* a missing source directory gives an empty atlas, still exit 0 */
    std::string out2 = g_tmp + "/out2";
    cmd = "'" + g_packer + "' '" + g_tmp + "/nowhere' '" + out2 + "' > /dev/null 2>&1";
    TH_CHECK_EQ_INT(system(cmd.c_str()), 0);
    char err[256];
    TH_CHECK(thal_load(&m, (out2 + "/atlas.txt").c_str(), err, sizeof err) && m.sprite_count == 0 && m.page_count == 0);
    thal_free(&m);
}

static void test_unwritable_output_fails(void)
{
    write_text(g_tmp + "/a_file", "x");
    std::string cmd = "'" + g_packer + "' '" + g_tmp + "/src' '" + g_tmp + "/a_file/out' > /dev/null 2>&1";
    int rc = system(cmd.c_str());
    TH_CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) != 0);
    cmd = "'" + g_packer + "' > /dev/null 2>&1";
    rc = system(cmd.c_str());
    TH_CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
}

int main(void)
{
#ifdef ENGINE_SOURCE_DIR   /* the project folder, from the build (a compiler cache may make __FILE__ relative) */
    std::string here = ENGINE_SOURCE_DIR "/tests/unit/";
#else
    std::string here = __FILE__;
#endif
    size_t at = here.rfind("tests/unit/");
    g_root = at == std::string::npos ? std::string(".") : here.substr(0, at);
    if (g_root.empty()) g_root = "./";
    g_packer = g_root + "build/tools/atlas_pack";
    char tmpl[] = "/tmp/atlas_pack_test_XXXXXX";
    if (access(g_packer.c_str(), X_OK) != 0 || !mkdtemp(tmpl)) {
        printf("FAIL: %s is not built (./build.sh tools) or no temp dir\n", g_packer.c_str());
        printf("0 passed, 1 failed\n");
        return 1;
    }
    g_tmp = tmpl;
    TH_RUN(test_pack_and_verify);
    TH_RUN(test_unchanged_input_is_a_no_op);
    TH_RUN(test_only_changed_page_rewritten);
    TH_RUN(test_fixed_image_comes_back);
    TH_RUN(test_damaged_cache_is_ignored);
    TH_RUN(test_stale_pages_removed_and_empty_source);
    TH_RUN(test_unwritable_output_fails);
    std::string cmd = "rm -rf '" + g_tmp + "'";
    if (system(cmd.c_str()) != 0) printf("could not remove %s\n", g_tmp.c_str());
    return th_test_finish();
}
