/* fuzz_input_script - the --input script reader on arbitrary text. */
#include "core/parse.cpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = (char *)malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    ScriptEvent *ev = NULL;
    int count = 0;
    char err[512] = "";
    int ok = parse_script(text, "fuzz.txt", &ev, &count, err, sizeof err);
    if (ok) {
        for (int i = 0; i < count; i++) {
            const ScriptEvent &e = ev[i];
            if (e.kind <= SCRIPT_TAP && (e.key <= KEY_NONE || e.key >= KEY_COUNT)) __builtin_trap();
            if (e.kind == SCRIPT_AXIS && (e.key < 0 || e.key >= AXIS_COUNT || e.a < -1 || e.a > 1)) __builtin_trap();
            if (i && ev[i - 1].step > e.step) __builtin_trap();
        }
    } else if (!strstr(err, "fuzz.txt")) {
        __builtin_trap();   /* a refusal names the file */
    }
    free(ev);
    free(text);
    return 0;
}
