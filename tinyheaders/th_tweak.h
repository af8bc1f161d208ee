/* th_tweak.h - tweakable constants: literals in source code that change while the program runs.

   th_tweak.h v1.0 - MIT or public domain, your choice: the texts are at the end of this file (and in
   the repository's LICENSE).

   WHAT IT DOES
     Wrap a literal in TWEAK(...) and the running program reads its value from the source file as it
     is now, not as it was compiled: change 3.5f to 5.0f, save, and the next read returns 5.0f with no
     compile and no reload. The header has two halves:
       - the reading side, for the program being tweaked: TWEAK(), TWEAK_V2(), TWEAK_COLOR(). Each
         read calls a hook with the site (file, line, a per-translation-unit counter, the literal's
         text) and the compiled value; the hook may overwrite the value. With no hook set, the compiled
         value is used, so tweaked code also runs unchanged outside a host.
       - the watching side, for the program that owns the hook (the engine's host): a scanner that
         finds every TWEAK site in a source text, a parser for every literal form, and a shape check
         that tells whether two versions of a file differ only inside TWEAK literals - the one case
         where a new value can be mapped back to its site without recompiling.

   USE
     #define TH_TWEAK_IMPLEMENTATION in exactly one C or C++ file before including it.

     Reading side (C++):
         static constexpr auto SPEED = TWEAK(340.0f);    // float; use it like a float: pos += SPEED * dt
         static constexpr auto LIVES = TWEAK(3);         // int
         static constexpr auto GODMODE = TWEAK(false);   // bool
         static constexpr auto TINT = TWEAK_COLOR(0xFF8800FF);  // uint32_t
         static constexpr auto GRAVITY = TWEAK_V2(0.0f, 980.0f); // any {x, y} struct: v2 g = GRAVITY;
         static constexpr auto SPAWN = TWEAK_POS(640.0f, 360.0f);      // a vec2 that is a place in the world
         static constexpr auto HUD = TWEAK_SCREEN_POS(24.0f, 20.0f);   // ... or on the screen
         thtw_set_hook(my_hook);   // once per call into the library (a reload resets globals)
       The objects are constant-initialized (no static constructors or destructors) and read the hook
       each time they convert to their value. TWEAK() also works inside expressions: x * TWEAK(2.0f).
     Reading side (C): the macros are calls returning the value: TWEAK_F(3.5f), TWEAK_I(3), TWEAK_B(1),
       TWEAK_COLOR(0xFF8800FF); TWEAK_V2 is C++ only.

     Watching side:
         thtw_site sites[256];
         int n = thtw_scan(text, len, sites, 256);           // every TWEAK site, in source order
         float v; thtw_parse(THTW_FLOAT, text + sites[0].arg_begin, sites[0].arg_end - sites[0].arg_begin, &v);
         if (thtw_same_shape(old_text, old_len, old_sites, old_n, text, len, sites, n)) { ...map by index... }

   LITERALS (exactly what thtw_parse accepts; the unit tests check each form)
     float  3.5f  -.5  1e-3f  +4.F  2.  1'000.5f   a decimal literal with a '.', an exponent or both,
                                               optional f/F/l/L suffix. A plain integer is NOT a float:
                                               TWEAK(4) is an int site, and saving TWEAK(4.5f) there
                                               changes its C++ type, which only the compiler can do.
     int    42  -7  0x1F  017 (octal)  0b101  10u  3L  1'000   fits int32 or uint32 (uint32 values
                                               wrap to int32, as the compiled value does); anything
                                               wider, e.g. -9223372036854775808, is refused.
     bool   true  false  (and 0 1, the form TWEAK_B() takes in C)
     vec2   1.0f, -2.5f                         (TWEAK_V2's two arguments, each a float as above; the
                                               same for TWEAK_POS and TWEAK_SCREEN_POS, which only tell
                                               a tool that the pair is a position, in which space)
     color  0xRRGGBBAA, or any unsigned integer literal up to 0xFFFFFFFF. Exactly six hex digits,
            0xRRGGBB, means an OPAQUE colour: 0x5A1E5A is 0x5A1E5AFF, both compiled (the macro reads
            its own text) and live. Write 0x005A1E5A to mean a transparent one.
     A sign may be followed by spaces ("- 3"), one pair of parentheses may surround the literal
     ("(-1.5f)"), and whitespace and comments inside the parentheses are ignored, as the
     preprocessor's # does. Anything else (a macro name, an expression) is not a literal: that one
     site keeps its compiled value; the other sites of its file stay live.

   CUSTOMIZATION
     THTW_MAX_LITERAL   (96)  longest literal text the scanner normalizes (longer: not tweakable)
     THTW_LITERALS            define it (e.g. -DTHTW_LITERALS) for a release: every TWEAK site compiles
                              to its literal - the type the reading object converts to (float, int32_t,
                              bool, uint32_t with the 0xRRGGBB rule, or an object converting to any
                              {x, y} struct), a constant expression in C++, and no hook is ever asked.

   Names: public thtw_ (and the macros above), private thtw__.
*/
#ifndef TH_TWEAK_H
#define TH_TWEAK_H

#include <stddef.h>
#include <stdint.h>

#ifndef THTW_MAX_LITERAL
#define THTW_MAX_LITERAL 96
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds; the values are part of the host contract (game_api.h's TWEAK_FLOAT... match them). */
enum { THTW_FLOAT = 1, THTW_INT = 2, THTW_BOOL = 3, THTW_VEC2 = 4, THTW_COLOR = 5,
       THTW_POS = 6,          /* TWEAK_POS(x, y): a position in world space (float[2], like THTW_VEC2) */
       THTW_SCREEN_POS = 7 }; /* TWEAK_SCREEN_POS(x, y): a position in screen space */
#define THTW_IS_PAIR(kind) ((kind) == THTW_VEC2 || (kind) == THTW_POS || (kind) == THTW_SCREEN_POS)

/* The hook: value_inout holds the compiled value (float, int32_t, int32_t 0/1, float[2], uint32_t);
   it may overwrite it. literal is the text of the macro's arguments as the preprocessor's # wrote it. */
typedef void thtw_hook_fn(const char *file, int line, int counter, int kind, const char *literal, void *value_inout);

void thtw_set_hook(thtw_hook_fn *hook);    /* NULL: compiled values */
thtw_hook_fn *thtw_get_hook(void);

float    thtw_read_float(const char *file, int line, int counter, const char *lit, float v);
int32_t  thtw_read_int(const char *file, int line, int counter, const char *lit, int32_t v);
int      thtw_read_bool(const char *file, int line, int counter, const char *lit, int v);
uint32_t thtw_read_color(const char *file, int line, int counter, const char *lit, uint32_t v);
void     thtw_read_vec2(const char *file, int line, int counter, const char *lit, float v[2]);
void     thtw_read_pair(const char *file, int line, int counter, int kind, const char *lit, float v[2]); /* VEC2, POS, SCREEN_POS */
uint32_t thtw_color_value(const char *lit, uint32_t v);  /* v, or 0xRRGGBBFF when lit is 0xRRGGBB (six digits) */

/* ---------------------------------------------------------------- watching side */
typedef struct thtw_site {
    int line;          /* 1-based line of the macro name */
    int kind;          /* THTW_VEC2 / THTW_COLOR from the macro name; for TWEAK() guessed from the literal */
    int arg_begin;     /* byte offsets of the text between the parentheses */
    int arg_end;
    char literal[THTW_MAX_LITERAL];  /* that text normalized like the preprocessor's #: "" if too long */
} thtw_site;

/* Finds TWEAK(...), TWEAK_F/I/B(...), TWEAK_V2(...), TWEAK_COLOR(...) outside comments, strings and
   preprocessor lines. Returns how many there are; fills at most max_sites. A site whose parentheses
   never close ends the scan. */
int  thtw_scan(const char *text, size_t len, thtw_site *sites, int max_sites);

/* Parses a literal of the given kind; 1 and the value (layout as for the hook) on success, 0 if the
   text is not exactly one literal of that kind. */
int  thtw_parse(int kind, const char *text, size_t len, void *value_out);

/* Normalizes text as the preprocessor's # does: comments become spaces, runs of whitespace one space,
   none at the ends. Returns the length, or -1 if it does not fit (out always terminated if cap > 0). */
int  thtw_normalize(const char *text, size_t len, char *out, size_t cap);

/* 1 if the two texts have the same sites (count, kinds, lines) and are byte-identical outside the
   sites' argument text: the only difference is inside TWEAK literals, so values map by site index. */
int  thtw_same_shape(const char *a, size_t alen, const thtw_site *as, int an,
                     const char *b, size_t blen, const thtw_site *bs, int bn);

/* Maps a saved text onto the text the program was compiled from: for each of the compiled text's
   sites, its value in the saved text (values[i], 8 bytes each, layout as for the hook; ok[i] 0 when
   that site is not a literal in either text - e.g. TWEAK(SOME_MACRO) - so it keeps its compiled
   value). Returns THTW_MAP_OK, THTW_MAP_SHAPE when more than literals changed, or THTW_MAP_UNPARSED
   when a changed literal is not a literal of its kind (both: only the compiler can apply it). */
enum { THTW_MAP_OK = 0, THTW_MAP_SHAPE = -1, THTW_MAP_UNPARSED = -2 };
int  thtw_map(const char *base, size_t blen, const thtw_site *bs, int bn,
              const char *now, size_t nlen, const thtw_site *ns, int nn, uint64_t *values, unsigned char *ok);

/* Writes `value` (layout as for the hook) as a literal of `kind` in the style of `old`, the raw text
   between a site's parentheses: the whitespace around each number is kept; a float keeps its suffix
   and its decimal places unless the value needs more (at most 6 significant digits); an int keeps its
   base (hex digits' case, width at least as before) and suffix; a bool stays true/false or 0/1; a
   colour stays hex, a 6-digit 0xRRGGBB grows to 8 digits when the alpha is below FF; a pair keeps its
   comma. Returns the length written (out terminated), or -1 if `old` is not one literal of that
   kind (comments inside, a macro name) or out is too small. */
int  thtw_format(int kind, const char *old, size_t old_len, const void *value, char *out, size_t cap);

/* Which of a line's sites a compiled site is: the index of the one site on `line` whose normalized
   literal equals `literal`; -1 if none, -2 if several (ambiguous: not tweakable live). */
int  thtw_find(const thtw_site *sites, int n, int line, const char *literal);

#ifdef __cplusplus
}
#endif

/* ---------------------------------------------------------------- the macros */
#ifdef __cplusplus
struct thtw_float {
    const char *file; int line; int counter; const char *lit; float value;
    operator float() const { return thtw_read_float(file, line, counter, lit, value); }
};
struct thtw_int {
    const char *file; int line; int counter; const char *lit; int32_t value;
    operator int32_t() const { return thtw_read_int(file, line, counter, lit, value); }
};
struct thtw_bool {
    const char *file; int line; int counter; const char *lit; bool value;
    operator bool() const { return thtw_read_bool(file, line, counter, lit, value) != 0; }
};
struct thtw_color {
    const char *file; int line; int counter; const char *lit; uint32_t value;
    operator uint32_t() const { return thtw_read_color(file, line, counter, lit, value); }
};
struct thtw_vec2 {
    const char *file; int line; int counter; const char *lit; float x, y; int kind;
    float get_x() const { float v[2] = { x, y }; thtw_read_pair(file, line, counter, kind, lit, v); return v[0]; }
    float get_y() const { float v[2] = { x, y }; thtw_read_pair(file, line, counter, kind, lit, v); return v[1]; }
    /* converts to any struct built from two floats, e.g. struct v2 { float x, y; } */
    template <typename V, typename = decltype(V{ 0.0f, 0.0f })>
    operator V() const { float v[2] = { x, y }; thtw_read_pair(file, line, counter, kind, lit, v); return V{ v[0], v[1] }; }
};
constexpr thtw_float thtw_make(const char *f, int l, int c, const char *s, float v) { return thtw_float{ f, l, c, s, v }; }
constexpr thtw_float thtw_make(const char *f, int l, int c, const char *s, double v) { return thtw_float{ f, l, c, s, (float)v }; }
constexpr thtw_int   thtw_make(const char *f, int l, int c, const char *s, int v) { return thtw_int{ f, l, c, s, v }; }
constexpr thtw_int   thtw_make(const char *f, int l, int c, const char *s, unsigned v) { return thtw_int{ f, l, c, s, (int32_t)v }; }
constexpr thtw_bool  thtw_make(const char *f, int l, int c, const char *s, bool v) { return thtw_bool{ f, l, c, s, v }; }
/* TWEAK_COLOR(0xRRGGBB), exactly six hex digits: an opaque colour (see LITERALS). Reads the macro's own text. */
constexpr int thtw__hexdigit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
constexpr int thtw__usuffix(const char *s) { return *s == 0 || ((*s == 'u' || *s == 'U') && s[1] == 0); }
constexpr int thtw__hexcount(const char *s, int n) { return thtw__hexdigit(*s) ? thtw__hexcount(s + 1, n + 1) : *s == '\'' ? thtw__hexcount(s + 1, n) : (n == 6 && thtw__usuffix(s)); }
constexpr uint32_t thtw__rgb_opaque(const char *s, uint32_t v) { return (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && thtw__hexcount(s + 2, 0)) ? (v << 8) | 0xFFu : v; }
constexpr thtw_color thtw_make_color(const char *f, int l, int c, const char *s, uint32_t v) { return thtw_color{ f, l, c, s, thtw__rgb_opaque(s, v) }; }
constexpr thtw_vec2  thtw_make_vec2(const char *f, int l, int c, const char *s, float x, float y, int kind = THTW_VEC2) { return thtw_vec2{ f, l, c, s, x, y, kind }; }

#define TWEAK(x)        thtw_make(__FILE__, __LINE__, __COUNTER__, #x, x)
#define TWEAK_COLOR(x)  thtw_make_color(__FILE__, __LINE__, __COUNTER__, #x, (uint32_t)(x))
#define TWEAK_V2(x, y)  thtw_make_vec2(__FILE__, __LINE__, __COUNTER__, #x ", " #y, (float)(x), (float)(y))
#define TWEAK_POS(x, y) thtw_make_vec2(__FILE__, __LINE__, __COUNTER__, #x ", " #y, (float)(x), (float)(y), THTW_POS)
#define TWEAK_SCREEN_POS(x, y) thtw_make_vec2(__FILE__, __LINE__, __COUNTER__, #x ", " #y, (float)(x), (float)(y), THTW_SCREEN_POS)
#endif
#define TWEAK_F(x)      thtw_read_float(__FILE__, __LINE__, __COUNTER__, #x, (float)(x))
#define TWEAK_I(x)      thtw_read_int(__FILE__, __LINE__, __COUNTER__, #x, (int32_t)(x))
#define TWEAK_B(x)      thtw_read_bool(__FILE__, __LINE__, __COUNTER__, #x, (x) ? 1 : 0)
#ifndef __cplusplus
#define TWEAK_COLOR(x)  thtw_read_color(__FILE__, __LINE__, __COUNTER__, #x, thtw_color_value(#x, (uint32_t)(x)))
#endif

/* A release (THTW_LITERALS): the same macros, each its literal. */
#if defined(THTW_LITERALS)
#undef TWEAK_F
#undef TWEAK_I
#undef TWEAK_B
#undef TWEAK_COLOR
#ifdef __cplusplus
#undef TWEAK
#undef TWEAK_V2
#undef TWEAK_POS
#undef TWEAK_SCREEN_POS
struct thtw_lit_vec2 {
    float x, y;
    constexpr float get_x() const { return x; }
    constexpr float get_y() const { return y; }
    template <typename V, typename = decltype(V{ 0.0f, 0.0f })>
    constexpr operator V() const { return V{ x, y }; }
};
constexpr float   thtw_lit(float v) { return v; }
constexpr float   thtw_lit(double v) { return (float)v; }
constexpr int32_t thtw_lit(int v) { return v; }
constexpr int32_t thtw_lit(unsigned v) { return (int32_t)v; }
constexpr bool    thtw_lit(bool v) { return v; }
#define TWEAK(x)        thtw_lit(x)
#define TWEAK_V2(x, y)  (thtw_lit_vec2{ (float)(x), (float)(y) })
#define TWEAK_POS(x, y) (thtw_lit_vec2{ (float)(x), (float)(y) })
#define TWEAK_SCREEN_POS(x, y) (thtw_lit_vec2{ (float)(x), (float)(y) })
#define TWEAK_COLOR(x)  thtw__rgb_opaque(#x, (uint32_t)(x))
#else
#define TWEAK_COLOR(x)  thtw_color_value(#x, (uint32_t)(x))
#endif
#define TWEAK_F(x)      ((float)(x))
#define TWEAK_I(x)      ((int32_t)(x))
#define TWEAK_B(x)      ((x) ? 1 : 0)
#endif /* THTW_LITERALS */

#endif /* TH_TWEAK_H */

/* ==================================================================================== implementation */
#ifdef TH_TWEAK_IMPLEMENTATION
#ifndef TH_TWEAK_IMPLEMENTED
#define TH_TWEAK_IMPLEMENTED
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

static thtw_hook_fn *thtw__hook;

void thtw_set_hook(thtw_hook_fn *hook) { thtw__hook = hook; }
thtw_hook_fn *thtw_get_hook(void) { return thtw__hook; }

float thtw_read_float(const char *file, int line, int counter, const char *lit, float v)
{
    if (thtw__hook) thtw__hook(file, line, counter, THTW_FLOAT, lit, &v);
    return v;
}
int32_t thtw_read_int(const char *file, int line, int counter, const char *lit, int32_t v)
{
    if (thtw__hook) thtw__hook(file, line, counter, THTW_INT, lit, &v);
    return v;
}
int thtw_read_bool(const char *file, int line, int counter, const char *lit, int v)
{
    int32_t b = v ? 1 : 0;
    if (thtw__hook) thtw__hook(file, line, counter, THTW_BOOL, lit, &b);
    return b != 0;
}
uint32_t thtw_read_color(const char *file, int line, int counter, const char *lit, uint32_t v)
{
    if (thtw__hook) thtw__hook(file, line, counter, THTW_COLOR, lit, &v);
    return v;
}
void thtw_read_vec2(const char *file, int line, int counter, const char *lit, float v[2])
{
    if (thtw__hook) thtw__hook(file, line, counter, THTW_VEC2, lit, v);
}
void thtw_read_pair(const char *file, int line, int counter, int kind, const char *lit, float v[2])
{
    if (thtw__hook) thtw__hook(file, line, counter, kind, lit, v);
}

static int thtw__is_rgb6(const char *s, size_t n)
{
    size_t i = 2;
    int digits = 0;
    if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return 0;
    for (; i < n; i++) {
        char c = s[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) digits++;
        else if (c != '\'') break;
    }
    if (i < n && (s[i] == 'u' || s[i] == 'U')) i++;
    return i == n && digits == 6;
}

uint32_t thtw_color_value(const char *lit, uint32_t v)
{
    return lit && thtw__is_rgb6(lit, strlen(lit)) ? (v << 8) | 0xFFu : v;
}

/* ---------------------------------------------------------------- normalizing */
static int thtw__space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static int thtw__ident(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* End of the identifier or number that starts at t[i] (an identifier character). A number is a
   preprocessing number: digit separators (1'000), '.', and exponent signs (1e-3) belong to it, so a
   separator is never taken for the start of a character literal. */
static size_t thtw__token_end(const char *t, size_t i, size_t len)
{
    int number = t[i] >= '0' && t[i] <= '9';
    i++;
    while (i < len) {
        char c = t[i];
        if (thtw__ident(c)) { i++; continue; }
        if (!number) break;
        if (c == '.') { i++; continue; }
        if (c == '\'' && i + 1 < len && thtw__ident(t[i + 1])) { i += 2; continue; }
        if ((c == '+' || c == '-') && (t[i - 1] == 'e' || t[i - 1] == 'E' || t[i - 1] == 'p' || t[i - 1] == 'P')) { i++; continue; }
        break;
    }
    return i;
}

/* Length of a backslash-newline (line splice) at t[i], 0 if there is none. */
static size_t thtw__splice(const char *t, size_t i, size_t len)
{
    if (i + 1 < len && t[i] == '\\' && t[i + 1] == '\n') return 2;
    if (i + 2 < len && t[i] == '\\' && t[i + 1] == '\r' && t[i + 2] == '\n') return 3;
    return 0;
}

int thtw_normalize(const char *t, size_t len, char *out, size_t cap)
{
    size_t o = 0, i = 0;
    int pending_space = 0, fits = 1;
    if (cap == 0) return -1;
    while (i < len) {
        char c = t[i];
        if (c == '/' && i + 1 < len && t[i + 1] == '/') {          /* line comment */
            while (i < len && t[i] != '\n') i++;
            pending_space = 1;
            continue;
        }
        if (c == '/' && i + 1 < len && t[i + 1] == '*') {          /* block comment */
            i += 2;
            while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/')) i++;
            i = i + 2 <= len ? i + 2 : len;
            pending_space = 1;
            continue;
        }
        if (thtw__space(c)) { pending_space = 1; i++; continue; }
        if (pending_space && o > 0) { if (o + 1 < cap) out[o] = ' '; else fits = 0; o++; }
        pending_space = 0;
        if (thtw__ident(c)) {                                        /* a word or number, copied whole */
            size_t e = thtw__token_end(t, i, len);
            for (; i < e; i++, o++) { if (o + 1 < cap) out[o] = t[i]; else fits = 0; }
            continue;
        }
        if (c == '"' || c == '\'') {                                 /* copied as is, escapes included */
            char q = c;
            if (o + 1 < cap) out[o] = c; else fits = 0;
            o++; i++;
            while (i < len && t[i] != q) {
                if (t[i] == '\\' && i + 1 < len) { if (o + 1 < cap) out[o] = t[i]; else fits = 0; o++; i++; }
                if (o + 1 < cap) out[o] = t[i]; else fits = 0;
                o++; i++;
            }
            if (i < len) { if (o + 1 < cap) out[o] = t[i]; else fits = 0; o++; i++; }
            continue;
        }
        if (o + 1 < cap) out[o] = c; else fits = 0;
        o++; i++;
    }
    if (!fits) { out[cap - 1] = 0; return -1; }
    out[o] = 0;
    return (int)o;
}

/* ---------------------------------------------------------------- parsing literals */
static int thtw__digit(char c) { return c >= '0' && c <= '9'; }
static int thtw__hex(char c) { return thtw__digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int thtw__hexval(char c) { return thtw__digit(c) ? c - '0' : (c | 32) - 'a' + 10; }

/* Parses a signed number at s[0..n): a C float literal (float_form 1) or integer literal (0).
   Returns 1 when all of s is consumed. The sign may be followed by spaces ("- 3" is what # makes of
   "-   3"), and a unary plus is allowed. Integers come back as a sign and a magnitude (no signed
   arithmetic, so no overflow); a magnitude that does not fit 64 bits is refused. A digit separator
   (1'000) must sit between two digits. */
static int thtw__digits(const char *s, size_t n, size_t *i, unsigned base, unsigned long long *v)
{
    int any = 0;
    while (*i < n) {
        char c = s[*i];
        unsigned d;
        if (c == '\'' && any && *i + 1 < n && thtw__hex(s[*i + 1])) { (*i)++; continue; }
        if (!thtw__hex(c)) break;
        d = (unsigned)thtw__hexval(c);
        if (d >= base) return -1;
        if (*v > (~0ull - d) / base) return -1;                 /* does not fit 64 bits */
        *v = *v * base + d;
        any = 1;
        (*i)++;
    }
    return any;
}

static int thtw__number(const char *s, size_t n, int float_form, double *fv, int *negative, unsigned long long *mag)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) { neg = s[i] == '-'; i++; while (i < n && s[i] == ' ') i++; }
    if (i >= n) return 0;
    if (!float_form) {
        unsigned long long v = 0;
        unsigned base = 10;
        int r;
        if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) { base = 16; i += 2; }
        else if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B')) { base = 2; i += 2; }
        else if (i + 1 < n && s[i] == '0') { base = 8; i++; }
        if (base == 10) { if (!thtw__digit(s[i])) return 0; }
        r = thtw__digits(s, n, &i, base, &v);
        if (r < 0 || (r == 0 && base != 8)) return 0;          /* "0x" alone; "0" then suffix is octal 0 */
        while (i < n && (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L')) i++;
        if (i != n) return 0;
        if (negative) *negative = neg;
        if (mag) *mag = v;
        return 1;
    }
    /* float: digits [. digits] [e[+-]digits] [f|F|l|L]; needs a '.', an exponent or a suffix to be
       float-form, and at least one digit */
    char buf[128];
    size_t len = 0;
    int digits = 0, dot = 0, expo = 0;
    while (i < n && (thtw__digit(s[i]) || (s[i] == '\'' && digits && i + 1 < n && thtw__digit(s[i + 1])))) {
        if (s[i] != '\'') { if (len + 1 >= sizeof buf) return 0; buf[len++] = s[i]; digits++; }
        i++;
    }
    if (i < n && s[i] == '.') {
        int after = 0;
        if (len + 1 >= sizeof buf) return 0;
        buf[len++] = '.';
        dot = 1;
        i++;
        while (i < n && (thtw__digit(s[i]) || (s[i] == '\'' && after && i + 1 < n && thtw__digit(s[i + 1])))) {
            if (s[i] != '\'') { if (len + 1 >= sizeof buf) return 0; buf[len++] = s[i]; digits++; after++; }
            i++;
        }
    }
    if (!digits) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        if (j >= n || !thtw__digit(s[j])) return 0;
        while (j < n && thtw__digit(s[j])) j++;
        if (len + (j - i) + 1 >= sizeof buf) return 0;
        memcpy(buf + len, s + i, j - i);
        len += j - i;
        i = j;
        expo = 1;
    }
    if (i < n && (s[i] == 'f' || s[i] == 'F' || s[i] == 'l' || s[i] == 'L')) i++;
    if (i != n) return 0;
    if (!dot && !expo) return 0;            /* "3f" is not C; "3" is an int */
    buf[len] = 0;
    {
        double d = strtod(buf, NULL);
        *fv = neg ? -d : d;
    }
    return 1;
}

int thtw_parse(int kind, const char *text, size_t len, void *value_out)
{
    char s[THTW_MAX_LITERAL * 2];
    int n = thtw_normalize(text, len, s, sizeof s);
    if (n <= 0) return 0;
    /* one pair of parentheses around the whole literal is harmless: (-1.5f) */
    if (s[0] == '(' && s[n - 1] == ')' && !THTW_IS_PAIR(kind)) { s[n - 1] = 0; return thtw_parse(kind, s + 1, (size_t)n - 2, value_out); }
    switch (kind) {
    case THTW_FLOAT: {
        double d;
        if (!thtw__number(s, (size_t)n, 1, &d, NULL, NULL)) return 0;
        float f = (float)d;
        memcpy(value_out, &f, sizeof f);
        return 1;
    }
    case THTW_INT: {
        unsigned long long m;
        int neg;
        uint32_t u;
        int32_t i;
        if (!thtw__number(s, (size_t)n, 0, NULL, &neg, &m)) return 0;
        if (neg ? m > 2147483648ull : m > 4294967295ull) return 0;
        u = neg ? (uint32_t)(0u - (uint32_t)m) : (uint32_t)m;
        memcpy(&i, &u, sizeof i);
        memcpy(value_out, &i, sizeof i);
        return 1;
    }
    case THTW_BOOL: {
        int32_t b;
        if (n == 4 && memcmp(s, "true", 4) == 0) b = 1;
        else if (n == 5 && memcmp(s, "false", 5) == 0) b = 0;
        else if (n == 1 && (s[0] == '0' || s[0] == '1')) b = s[0] - '0';
        else return 0;
        memcpy(value_out, &b, sizeof b);
        return 1;
    }
    case THTW_COLOR: {
        unsigned long long u;
        int neg;
        uint32_t c;
        if (!thtw__number(s, (size_t)n, 0, NULL, &neg, &u) || neg || u > 0xFFFFFFFFull) return 0;
        c = (uint32_t)u;
        if (thtw__is_rgb6(s, (size_t)n)) c = (c << 8) | 0xFFu;   /* 0xRRGGBB: opaque */
        memcpy(value_out, &c, sizeof c);
        return 1;
    }
    case THTW_VEC2: case THTW_POS: case THTW_SCREEN_POS: {
        const char *comma = (const char *)memchr(s, ',', (size_t)n);
        if (!comma) return 0;
        float v[2];
        size_t a = (size_t)(comma - s), b0 = a + 1;
        while (a > 0 && s[a - 1] == ' ') a--;
        while (b0 < (size_t)n && s[b0] == ' ') b0++;
        if (!thtw_parse(THTW_FLOAT, s, a, &v[0]) || !thtw_parse(THTW_FLOAT, s + b0, (size_t)n - b0, &v[1])) return 0;
        memcpy(value_out, v, sizeof v);
        return 1;
    }
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------- scanning */
static int thtw__guess_kind(const char *lit)
{
    double d;
    size_t n = strlen(lit);
    if (strcmp(lit, "true") == 0 || strcmp(lit, "false") == 0) return THTW_BOOL;
    if (thtw__number(lit, n, 1, &d, NULL, NULL)) return THTW_FLOAT;
    return THTW_INT;
}

int thtw_scan(const char *t, size_t len, thtw_site *sites, int max_sites)
{
    static const struct { const char *name; int kind; } MACROS[] = {
        { "TWEAK", 0 }, { "TWEAK_F", THTW_FLOAT }, { "TWEAK_I", THTW_INT }, { "TWEAK_B", THTW_BOOL },
        { "TWEAK_V2", THTW_VEC2 }, { "TWEAK_COLOR", THTW_COLOR }, { "TWEAK_POS", THTW_POS },
        { "TWEAK_SCREEN_POS", THTW_SCREEN_POS },
    };
    int count = 0, line = 1, line_start = 1;
    size_t i = 0;
    while (i < len) {
        char c = t[i];
        if (c == '\n') { line++; line_start = 1; i++; continue; }
        if (thtw__space(c)) { i++; continue; }
        if (c == '#' && line_start) {                                /* a preprocessor line, continuations too */
            while (i < len && t[i] != '\n') {
                if (t[i] == '\\' && i + 1 < len && t[i + 1] == '\n') { line++; i++; }
                i++;
            }
            continue;
        }
        line_start = 0;
        if (c == '/' && i + 1 < len && t[i + 1] == '/') {          /* a line comment; a splice continues it */
            while (i < len && t[i] != '\n') { size_t sp = thtw__splice(t, i, len); if (sp) { line++; i += sp; } else i++; }
            continue;
        }
        if (c == '/' && i + 1 < len && t[i + 1] == '*') {
            i += 2;
            while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/')) { if (t[i] == '\n') line++; i++; }
            i = i + 2 <= len ? i + 2 : len;
            continue;
        }
        if (c == '"' || c == '\'') {                                 /* a splice inside a string is a line too */
            char q = c;
            i++;
            while (i < len && t[i] != q && t[i] != '\n') {
                size_t sp = thtw__splice(t, i, len);
                if (sp) { line++; i += sp; continue; }
                if (t[i] == '\\' && i + 1 < len) i++;
                i++;
            }
            if (i < len && t[i] == q) i++;
            continue;
        }
        if (!thtw__ident(c)) { i++; continue; }
        size_t w = i;
        i = thtw__token_end(t, i, len);
        if ((c >= '0' && c <= '9')) continue;
        size_t wl = i - w;
        int kind = -1;
        for (size_t m = 0; m < sizeof MACROS / sizeof MACROS[0]; m++)
            if (strlen(MACROS[m].name) == wl && memcmp(t + w, MACROS[m].name, wl) == 0) kind = MACROS[m].kind;
        if (kind < 0) continue;
        size_t j = i;
        while (j < len && (t[j] == ' ' || t[j] == '\t')) j++;
        if (j >= len || t[j] != '(') continue;
        /* the argument: up to the matching parenthesis, skipping comments and strings */
        int depth = 1, site_line = line, extra_lines = 0;
        size_t a = j + 1, k = a;
        while (k < len && depth > 0) {
            char d = t[k];
            if (d == '\n') extra_lines++;
            if (d == '/' && k + 1 < len && t[k + 1] == '*') {
                k += 2;
                while (k + 1 < len && !(t[k] == '*' && t[k + 1] == '/')) { if (t[k] == '\n') extra_lines++; k++; }
                k += 2;
                continue;
            }
            if (d == '/' && k + 1 < len && t[k + 1] == '/') {
                while (k < len && t[k] != '\n') { size_t sp = thtw__splice(t, k, len); if (sp) { extra_lines++; k += sp; } else k++; }
                continue;
            }
            if (d == '"' || d == '\'') {
                k++;
                while (k < len && t[k] != d && t[k] != '\n') {
                    size_t sp = thtw__splice(t, k, len);
                    if (sp) { extra_lines++; k += sp; continue; }
                    if (t[k] == '\\' && k + 1 < len) k++;
                    k++;
                }
                if (k < len && t[k] == d) k++;
                continue;
            }
            if (thtw__ident(d)) { k = thtw__token_end(t, k, len); continue; }
            if (d == '(') depth++;
            if (d == ')') depth--;
            k++;
        }
        if (depth > 0) break;                                        /* unterminated: stop here */
        if (count < max_sites) {
            thtw_site *s = &sites[count];
            s->line = site_line;
            s->arg_begin = (int)a;
            s->arg_end = (int)(k - 1);
            if (thtw_normalize(t + a, (size_t)(k - 1 - a), s->literal, sizeof s->literal) < 0) s->literal[0] = 0;
            s->kind = kind ? kind : thtw__guess_kind(s->literal);
        }
        count++;
        line += extra_lines;
        i = k;
    }
    return count;
}

int thtw_same_shape(const char *a, size_t alen, const thtw_site *as, int an,
                    const char *b, size_t blen, const thtw_site *bs, int bn)
{
    if (an != bn) return 0;
    size_t pa = 0, pb = 0;
    for (int i = 0; i <= an; i++) {
        size_t ea = i < an ? (size_t)as[i].arg_begin : alen;
        size_t eb = i < bn ? (size_t)bs[i].arg_begin : blen;
        if (ea < pa || eb < pb || ea - pa != eb - pb || memcmp(a + pa, b + pb, ea - pa) != 0) return 0;
        if (i < an) {
            if (as[i].line != bs[i].line) return 0;
            int ka = as[i].kind, kb = bs[i].kind;
            /* TWEAK() guesses its kind from the literal: a change of form (3 -> 3.5f) is a change of type */
            if (ka != kb) return 0;
            pa = (size_t)as[i].arg_end;
            pb = (size_t)bs[i].arg_end;
        }
    }
    return 1;
}

int thtw_map(const char *base, size_t blen, const thtw_site *bs, int bn,
             const char *now, size_t nlen, const thtw_site *ns, int nn, uint64_t *values, unsigned char *ok)
{
    int i;
    if (!thtw_same_shape(base, blen, bs, bn, now, nlen, ns, nn)) return THTW_MAP_SHAPE;
    for (i = 0; i < bn; i++) {
        const thtw_site *b = &bs[i], *s = &ns[i];
        size_t len = (size_t)(s->arg_end - s->arg_begin);
        values[i] = 0;
        ok[i] = (unsigned char)thtw_parse(s->kind, now + s->arg_begin, len, &values[i]);
        if (ok[i]) continue;
        /* not a literal: fine while it is the text that was compiled (that site keeps its compiled
           value); a change to it is the compiler's */
        if (len != (size_t)(b->arg_end - b->arg_begin) || memcmp(now + s->arg_begin, base + b->arg_begin, len) != 0)
            return THTW_MAP_UNPARSED;
    }
    return THTW_MAP_OK;
}

/* ---------------------------------------------------------------- writing a literal back */
/* One number in the style of `old` (trimmed, no comments): 1 and the text, 0 if old is not that kind. */
static int thtw__format_one(int kind, const char *old, size_t n, const void *value, char *out, size_t cap)
{
    char body[64];
    size_t i = 0;
    int paren = n >= 2 && old[0] == '(' && old[n - 1] == ')';
    if (paren) {
        size_t a = 1, b = n - 1;
        while (a < b && thtw__space(old[a])) a++;
        while (b > a && thtw__space(old[b - 1])) b--;
        char inner[64];
        if (!thtw__format_one(kind, old + a, b - a, value, inner, sizeof inner)) return 0;
        return snprintf(out, cap, "(%.*s%s%.*s)", (int)(a - 1), old + 1, inner, (int)(n - 1 - b), old + b) < (int)cap;
    }
    if (kind == THTW_BOOL) {
        int32_t b;
        memcpy(&b, value, 4);
        if (n == 1 && (old[0] == '0' || old[0] == '1')) return snprintf(out, cap, "%d", b ? 1 : 0) < (int)cap;
        if ((n == 4 && !memcmp(old, "true", 4)) || (n == 5 && !memcmp(old, "false", 5))) return snprintf(out, cap, "%s", b ? "true" : "false") < (int)cap;
        return 0;
    }
    if (kind == THTW_FLOAT) {
        double d;
        float f, want;
        size_t dot, decimals = 0, e;
        char suffix[4] = "";
        int has_dot, has_exp;
        if (!thtw__number(old, n, 1, &d, NULL, NULL)) return 0;
        memcpy(&f, value, 4);
        if (f != f || f - f != 0) return 0;                                  /* NaN, infinity: no literal */
        for (dot = 0; dot < n && old[dot] != '.'; dot++) {}
        has_dot = dot < n;
        for (e = 0; e < n && old[e] != 'e' && old[e] != 'E'; e++) {}
        has_exp = e < n;
        if (has_dot) for (i = dot + 1; i < n && (thtw__digit(old[i]) || old[i] == '\''); i++) decimals += old[i] != '\'';
        if (n && (old[n - 1] == 'f' || old[n - 1] == 'F' || old[n - 1] == 'l' || old[n - 1] == 'L')) { suffix[0] = old[n - 1]; }
        snprintf(body, sizeof body, "%.6g", (double)f);                      /* at most 6 significant digits */
        want = (float)strtod(body, NULL);
        if (has_exp) {
            for (int p = 0; p <= 6; p++) {
                snprintf(body, sizeof body, "%.*e", p, (double)want);
                if ((float)strtod(body, NULL) == want) break;
            }
        } else {
            for (size_t p = decimals; p <= 40; p++) {
                snprintf(body, sizeof body, "%.*f", (int)p, (double)want);
                if ((float)strtod(body, NULL) == want) break;
            }
            if (!strchr(body, '.')) { size_t l = strlen(body); if (l + 1 < sizeof body) { body[l] = '.'; body[l + 1] = 0; } }
        }
        if (!strcmp(body, "-0.") || (body[0] == '-' && strtod(body, NULL) == 0)) memmove(body, body + 1, strlen(body));
        return snprintf(out, cap, "%s%s", body, suffix) < (int)cap;
    }
    /* int and colour: an integer literal in the old one's base */
    {
        unsigned long long mag;
        int neg, upper = 0, lower = 0, digits = 0;
        uint32_t u;
        int32_t v;
        size_t p = 0, suf;
        char pre[3] = "";
        if (!thtw__number(old, n, 0, NULL, &neg, &mag)) return 0;
        for (suf = n; suf > 0 && (old[suf - 1] == 'u' || old[suf - 1] == 'U' || old[suf - 1] == 'l' || old[suf - 1] == 'L'); suf--) {}
        if (old[0] == '-' || old[0] == '+') { p = 1; while (p < suf && old[p] == ' ') p++; }
        if (suf - p >= 2 && old[p] == '0' && (old[p + 1] == 'x' || old[p + 1] == 'X' || old[p + 1] == 'b' || old[p + 1] == 'B')) {
            pre[0] = '0'; pre[1] = old[p + 1]; p += 2;
        } else if (suf - p >= 2 && old[p] == '0') { pre[0] = '0'; p += 1; }
        for (size_t k = p; k < suf; k++) {
            if (old[k] >= 'a' && old[k] <= 'f') lower = 1;
            if (old[k] >= 'A' && old[k] <= 'F') upper = 1;
            if (old[k] != '\'') digits++;
        }
        memcpy(&v, value, 4);
        memcpy(&u, value, 4);
        if (kind == THTW_COLOR) {
            if (pre[1] == 'x' || pre[1] == 'X') {
                int rgb6 = thtw__is_rgb6(old, n) && (u & 0xFFu) == 0xFFu;
                if (rgb6) u >>= 8;
                snprintf(body, sizeof body, lower && !upper ? "%0*x" : "%0*X", rgb6 ? 6 : 8, u);
            } else snprintf(body, sizeof body, "%u", u);
            neg = 0;
        } else {
            unsigned long long m;
            int unsigned_suffix = memchr(old + suf, 'u', n - suf) || memchr(old + suf, 'U', n - suf);
            int signed_form = !unsigned_suffix && (old[0] == '-' || !pre[0]);   /* 0xFFFFFFFF stays unsigned-looking */
            neg = signed_form && v < 0;
            m = neg ? (unsigned long long)(-(long long)v) : signed_form ? (unsigned long long)(long long)v : (unsigned long long)u;
            if (pre[1] == 'x' || pre[1] == 'X') snprintf(body, sizeof body, lower && !upper ? "%0*llx" : "%0*llX", digits, m);
            else if (pre[1] == 'b' || pre[1] == 'B') {
                char bits[40];
                int bn = 0;
                do { bits[bn++] = (char)('0' + (m & 1)); m >>= 1; } while (m);
                while (bn < digits && bn < 32) bits[bn++] = '0';
                for (int k = 0; k < bn; k++) body[k] = bits[bn - 1 - k];
                body[bn] = 0;
            } else if (pre[0] == '0') snprintf(body, sizeof body, "%llo", m);
            else { snprintf(body, sizeof body, "%llu", m); pre[0] = 0; }
        }
        (void)mag;
        return snprintf(out, cap, "%s%s%s%.*s", neg ? "-" : "", pre, body, (int)(n - suf), old + suf) < (int)cap;
    }
}

int thtw_format(int kind, const char *old, size_t old_len, const void *value, char *out, size_t cap)
{
    size_t a = 0, b = old_len;
    if (!out || cap == 0) return -1;
    out[0] = 0;
    for (size_t k = 0; k + 1 < old_len; k++) if (old[k] == '/' && (old[k + 1] == '/' || old[k + 1] == '*')) return -1;
    if (THTW_IS_PAIR(kind)) {
        const char *comma = (const char *)memchr(old, ',', old_len);
        float v[2];
        char x[80], y[80];
        size_t c;
        if (!comma) return -1;
        c = (size_t)(comma - old);
        memcpy(v, value, sizeof v);
        if (thtw_format(THTW_FLOAT, old, c, &v[0], x, sizeof x) < 0 || thtw_format(THTW_FLOAT, comma + 1, old_len - c - 1, &v[1], y, sizeof y) < 0) return -1;
        if (snprintf(out, cap, "%s,%s", x, y) >= (int)cap) return -1;
        return (int)strlen(out);
    }
    while (a < b && thtw__space(old[a])) a++;
    while (b > a && thtw__space(old[b - 1])) b--;
    {
        char body[96];
        if (b - a >= 64 || !thtw__format_one(kind, old + a, b - a, value, body, sizeof body)) { out[0] = 0; return -1; }
        if (snprintf(out, cap, "%.*s%s%.*s", (int)a, old, body, (int)(old_len - b), old + b) >= (int)cap) { out[0] = 0; return -1; }
    }
    return (int)strlen(out);
}

int thtw_find(const thtw_site *sites, int n, int line, const char *literal)
{
    int found = -1;
    for (int i = 0; i < n; i++) {
        if (sites[i].line != line || strcmp(sites[i].literal, literal) != 0) continue;
        if (found >= 0) return -2;
        found = i;
    }
    return found;
}

#ifdef __cplusplus
}
#endif
#endif /* TH_TWEAK_IMPLEMENTED */
#endif /* TH_TWEAK_IMPLEMENTATION */

/*
   LICENCE - this file is offered under your choice of A or B.

   A - MIT License

   Copyright (c) 2026 the engine's maintainers

   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all copies or
   substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
   NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
   OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

   B - Public domain

   The authors dedicate this file to the public domain, giving up every copyright interest in
   it, for the benefit of the public and to the detriment of their heirs and successors, and
   meaning it as a permanent act. Anyone may copy, modify, publish, use, compile, sell or distribute
   it, as source or as a compiled binary, for any purpose, commercial or not, and by any means,
   with no need to name the authors. Where a dedication to the public domain is not recognised, the
   authors grant everyone the same rights under the MIT License above, without its condition.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED. IN NO EVENT
   SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY ARISING FROM, OUT OF OR IN
   CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
