/* manual_example.h - keeps a tinyheader's manual example and a compiled copy of it from drifting apart
   (C99 and C++). Paste the example inside TH__EXAMPLE(name_src, ...): that compiles it and keeps its text
   as the string name_src. check_manual_example("th_x.h", name_src) reads the header from tinyheaders/
   (the tests run from the repository root) and checks that the text between "EXAMPLE (compiled
   verbatim" and "END EXAMPLE" is the same code, ignoring whitespace, # lines and // comments. */
#ifndef MANUAL_EXAMPLE_H
#define MANUAL_EXAMPLE_H

#include <stdio.h>
#include <string.h>
#include "th_test.h"

#define TH__EXAMPLE(name, ...) __VA_ARGS__ static const char name[] = #__VA_ARGS__;

/* Keeps only the code characters: drops whitespace, // comments and # lines. */
static size_t squeeze(const char *src, size_t n, char *out)
{
    size_t i = 0, o = 0;
    int line_start = 1;
    while (i < n) {
        char c = src[i];
        if (c == '\n') { line_start = 1; i++; continue; }
        if (c == ' ' || c == '\t' || c == '\r') { i++; continue; }
        if ((line_start && c == '#') || (c == '/' && i + 1 < n && src[i + 1] == '/')) {
            while (i < n && src[i] != '\n') i++;
            continue;
        }
        line_start = 0;
        out[o++] = c;
        i++;
    }
    out[o] = 0;
    return o;
}

static void check_manual_example(const char *header, const char *compiled_src)
{
    static char file[1 << 18], a[16384], b[16384];
    char path[256];
    const char *start, *end;
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "tinyheaders/%s", header);
    f = fopen(path, "rb");
    if (!f) {
        snprintf(path, sizeof path, "../tinyheaders/%s", header);
        f = fopen(path, "rb");
    }
    TH_CHECK_MSG(f != NULL, "cannot open %s (run from the repository root)", header);
    if (!f) return;
    n = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    file[n] = 0;
    start = strstr(file, "EXAMPLE (compiled verbatim");
    end = start ? strstr(start, "END EXAMPLE") : NULL;
    TH_CHECK_MSG(start && end, "%s: no EXAMPLE ... END EXAMPLE block", header);
    if (!start || !end) return;
    start = strchr(start, '\n');
    squeeze(start, (size_t)(end - start), a);
    squeeze(compiled_src, strlen(compiled_src), b);
    if (strcmp(a, b) != 0) {
        printf("manual example of %s:\n  %s\ncompiled copy:\n  %s\n", header, a, b);
        TH_CHECK_MSG(0, "%s: the manual example differs from the compiled copy", header);
    }
}

#endif
