#ifndef UNDERSTUDY_CZLIB_SHIM_H
#define UNDERSTUDY_CZLIB_SHIM_H
// zlib (zlib1g-dev's header), which the transport compresses a response's body with (`compress`).
// Header-only like the other shims, and with no `link`, as CCurl: the daemon opens libz.so.1 with
// dlopen the first time it compresses, so a daemon that never does pays nothing for it at start-up
// (linking it cost exact100's start ~220 k instructions: scripts/bench --startup-callgrind).
#include <stddef.h>
#include <dlfcn.h>
#include <zlib.h>

typedef struct understudy_zlib {
    void *library;
    int (*init2)(z_streamp stream, int level, int method, int window_bits, int mem_level, int strategy,
                 const char *version, int stream_size);
    int (*run)(z_streamp stream, int flush);
    int (*end)(z_streamp stream);
    uLong (*bound)(z_streamp stream, uLong source_length);
} understudy_zlib;

/// Opens zlib and fills `api`; 0 when it is not installed or lacks an entry point (then nothing stays
/// open), else 1.
static inline int understudy_zlib_load(understudy_zlib *api) {
    void *library = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    api->library = library;
#define UNDERSTUDY_ZLIB_SYMBOL(field, name) \
    *(void **)(&api->field) = dlsym(library, name); \
    if (!api->field) { dlclose(library); api->library = NULL; return 0; }
    UNDERSTUDY_ZLIB_SYMBOL(init2, "deflateInit2_")
    UNDERSTUDY_ZLIB_SYMBOL(run, "deflate")
    UNDERSTUDY_ZLIB_SYMBOL(end, "deflateEnd")
    UNDERSTUDY_ZLIB_SYMBOL(bound, "deflateBound")
#undef UNDERSTUDY_ZLIB_SYMBOL
    return 1;
}

// deflateInit2 is a macro over deflateInit2_ (it passes the header's version and the stream's size),
// which Swift cannot expand; this does, through the opened library.
static inline int understudy_zlib_deflate_init(const understudy_zlib *api, z_streamp stream, int level,
                                               int window_bits) {
    return api->init2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                      (int)sizeof(z_stream));
}

#endif
