/* pack_assets - put files into one archive (tinyheaders/th_pack.h), or list and check one.

     pack_assets OUT.pak ITEM...      write OUT.pak (via OUT.pak.tmp + rename)
         NAME=PATH                    the file PATH, stored as NAME
         NAME/=DIR                    every file under DIR, stored as NAME/<path below DIR>
                                      (files and folders whose name starts with '.' are left out)
     pack_assets --list ARCHIVE       one line per file: size, name; and whether its check holds

   Exit status: 0 done; 1 a file could not be read or stored, or the archive is damaged (the message
   names the file and the reason); 2 bad usage. The release build (`./build.sh dist`) packs the atlas
   pages and manifest, the baked font and the sounds with it. */
#define TH_PACK_IMPLEMENTATION
#include "th_pack.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

static int usage(void)
{
    fprintf(stderr, "usage: pack_assets OUT.pak NAME=PATH | NAME/=DIR ...\n"
                    "       pack_assets --list ARCHIVE\n");
    return 2;
}

/* Every regular file below dir (sorted, so the walk does not depend on the file system's order). */
static bool walk(const std::string &dir, const std::string &prefix, std::vector<std::pair<std::string, std::string>> *out)
{
    DIR *d = opendir(dir.c_str());
    if (!d) { fprintf(stderr, "pack_assets: %s: cannot open the folder (%s)\n", dir.c_str(), strerror(errno)); return false; }
    std::vector<std::string> names;
    while (struct dirent *e = readdir(d))
        if (e->d_name[0] != '.') names.push_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string &n : names) {
        std::string path = dir + "/" + n;
        struct stat st;
        if (stat(path.c_str(), &st) != 0) { fprintf(stderr, "pack_assets: %s: %s\n", path.c_str(), strerror(errno)); return false; }
        if (S_ISDIR(st.st_mode)) { if (!walk(path, prefix + n + "/", out)) return false; }
        else if (S_ISREG(st.st_mode)) out->push_back({ prefix + n, path });
    }
    return true;
}

static int list(const char *path)
{
    thpk_archive a;
    char err[512];
    if (!thpk_open_file(&a, path, err, sizeof err)) { fprintf(stderr, "pack_assets: %s: %s\n", path, err); return 1; }
    int damaged = 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < a.count; i++) {
        size_t n = 0;
        bool ok = thpk_get(&a, (int)i, &n, err, sizeof err) != NULL;
        printf("%10llu  %s%s\n", (unsigned long long)thpk_size(&a, (int)i), thpk_name(&a, (int)i), ok ? "" : "  DAMAGED");
        if (!ok) { fprintf(stderr, "pack_assets: %s: %s\n", path, err); damaged++; }
        total += thpk_size(&a, (int)i);
    }
    printf("%u files, %llu bytes of data, %llu bytes in all\n", (unsigned)a.count, (unsigned long long)total, (unsigned long long)a.size);
    thpk_close(&a);
    return damaged ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--list") == 0) return list(argv[2]);
    if (argc < 2 || argv[1][0] == '-') return usage();
    std::vector<std::pair<std::string, std::string>> files;   /* name, path */
    for (int i = 2; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i]) { fprintf(stderr, "pack_assets: '%s' is not NAME=PATH or NAME/=DIR\n", argv[i]); return usage(); }
        std::string name(argv[i], (size_t)(eq - argv[i])), path(eq + 1);
        if (name.back() == '/') { if (!walk(path, name, &files)) return 1; }
        else files.push_back({ name, path });
    }
    thpk_writer w;
    thpk_writer_init(&w);
    char err[512];
    for (const auto &f : files) {
        if (!thpk_writer_add_file(&w, f.first.c_str(), f.second.c_str(), err, sizeof err)) {
            if (strstr(err, f.second.c_str())) fprintf(stderr, "pack_assets: %s\n", err);
            else fprintf(stderr, "pack_assets: %s: %s\n", f.second.c_str(), err);
            thpk_writer_free(&w);
            return 1;
        }
    }
    int ok = thpk_writer_save(&w, argv[1], err, sizeof err);
    thpk_writer_free(&w);
    if (!ok) { fprintf(stderr, "pack_assets: %s\n", err); return 1; }
    printf("pack_assets: %s: %d files\n", argv[1], (int)files.size());
    return 0;
}
