/* fuzz_event_json - whatever text reaches the event log (file names, compiler output, game strings)
   must come out as the inside of a valid JSON string, valid UTF-8, within the buffer. */
#include <ctype.h>
#include "core/parse.cpp"

static int valid_json_string_body(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p < 0x20 || *p == '"') return 0;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++) if (!isxdigit(p[i])) return 0;
                p += 5;
            } else if (*p && strchr("\"\\/bfnrt", *p)) {
                p++;
            } else {
                return 0;
            }
            continue;
        }
        int n = utf8_sequence(p);
        if (!n) return 0;
        p += n;
    }
    return 1;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    size_t cap = 1 + data[0] % 200;
    char *in = (char *)malloc(size);
    memcpy(in, data + 1, size - 1);
    in[size - 1] = 0;
    char *out = (char *)malloc(cap);
    parse_json_escape(in, out, cap);
    if (strlen(out) >= cap || !valid_json_string_body(out)) __builtin_trap();
    free(in);
    free(out);
    return 0;
}
