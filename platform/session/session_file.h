/* session_file.h - the timeline as one file (docs/timeline.md, "Sessions as files"): the format, its checked reader and
   its writer. No globals and no SDL, so the unit tests and tests/fuzz/fuzz_session_file.cpp drive them directly;
   timeline.cpp fills and reads them. */
#ifndef HOST_SESSION_FILE_H
#define HOST_SESSION_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "game_api.h"

typedef struct TimelineStep {   /* one step as it ran live (the timeline's record, and the file's) */
    GameInput input;
    uint64_t  hash;             /* of the state after the step */
    uint32_t  epoch;            /* the code it ran under: a reload or a live TWEAK value starts a new one */
    int32_t   version;          /* the library version */
} TimelineStep;

typedef struct SessionSnap {    /* a kept state in the file: the block before step `step` ran, packed */
    uint64_t step, bytes, used;
} SessionSnap;

/* The file: a 128-byte header, the game folder's name, the state's types table (th_reflect.h's), every step, the
   snapshot table, the packed snapshots one after the other; each part starts 8-aligned. The header's checksum is
   th_hash_bytes64 of the whole file with the checksum's 8 bytes zero. */
#define SESSION_FILE_MAGIC        "THSESS\r\n"
#define SESSION_FILE_VERSION      1
#define SESSION_FILE_HEADER_BYTES 128
#define SESSION_FILE_MAX_STEPS    (3600ull * 60)   /* --timeline's limit */
#define SESSION_FILE_MAX_SNAPS    8192             /* the ring's */
#define SESSION_FILE_MAX_NAME     255
#define SESSION_FILE_MAX_TYPES    (64ull << 20)    /* as a library's table (migrate.cpp) */
#define SESSION_FILE_MAX_STATE    (64ull << 30)    /* as --memory's limit */

typedef struct SessionFile {    /* a checked file: its header and where its parts lie (pointing into its bytes) */
    uint32_t layout_hash;       /* the state's layout stamp and size when it was written */
    uint64_t state_size;
    uint64_t first, count;      /* the steps: first .. first + count - 1 */
    uint64_t cursor;            /* the step shown when it was written */
    uint64_t code_id;           /* a hash of the game library's file: the same code on open compares the hashes */
    uint32_t epoch;             /* the newest steps' epoch (the ones code_id ran) */
    char     game[SESSION_FILE_MAX_NAME + 1];   /* the game folder's name */
    const uint64_t     *types;  /* th_reflect.h's table, types_bytes long */
    uint64_t            types_bytes;
    const TimelineStep *steps;  /* count of them */
    const SessionSnap  *snaps;  /* snap_count of them, by step, each step within the steps */
    uint64_t            snap_count;
    const uint8_t      *packed; /* the snapshots' bytes, in the table's order */
} SessionFile;

/* 1 and *out filled when the bytes are a whole, undamaged session file; 0 and err says what is wrong. data must be
   8-aligned (a malloc'ed copy). The types table is checked with thr_read and against state_size. */
int    session_file_check(const uint8_t *data, size_t n, SessionFile *out, char *err, size_t cap);
size_t session_file_size(const SessionFile *f);          /* the bytes session_file_write needs */
/* writes f (its parts from wherever they are) into out (session_file_size bytes); steps by step_at(first + i) */
void   session_file_write(const SessionFile *f, const TimelineStep *(*step_at)(uint64_t step),
                          const uint8_t *(*snap_bytes)(uint64_t k), uint8_t *out);

#endif /* HOST_SESSION_FILE_H */
