#ifndef UNDERSTUDY_CZLIB_SHIM_H
#define UNDERSTUDY_CZLIB_SHIM_H
// The compressors the transport encodes a response's body with (`compress`): zlib (zlib1g-dev's
// header) for gzip and deflate, and brotli's encoder (libbrotlienc.so.1, Debian's libbrotli1) for br.
// Header-only like the other shims, and with no `link`, as CCurl: the daemon opens each library with
// dlopen the first time it compresses with it, so a daemon that never does pays nothing for it at
// start-up (linking zlib cost exact100's start ~220 k instructions: scripts/bench --startup-callgrind).
#include <stddef.h>
#include <stdint.h>
#include <dlfcn.h>
#include <zlib.h>

/// The one loader: opens `path` and resolves each of `names` into the slot of the same index; the
/// handle, or NULL when the library is missing or lacks an entry point (then nothing stays open).
static inline void *understudy_compressor_open(const char *path, const char *const *names, void **slots,
                                               int count) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) return NULL;
    for (int index = 0; index < count; index++) {
        slots[index] = dlsym(library, names[index]);
        if (!slots[index]) {
            dlclose(library);
            return NULL;
        }
    }
    return library;
}

typedef struct understudy_zlib {
    void *library;
    int (*init2)(z_streamp stream, int level, int method, int window_bits, int mem_level, int strategy,
                 const char *version, int stream_size);
    int (*run)(z_streamp stream, int flush);
    int (*end)(z_streamp stream);
    uLong (*bound)(z_streamp stream, uLong source_length);
    int (*reset)(z_streamp stream);
} understudy_zlib;

/// Opens zlib and fills `api`; 0 when it is not installed or lacks an entry point, else 1.
static inline int understudy_zlib_load(understudy_zlib *api) {
    static const char *const names[] = {"deflateInit2_", "deflate", "deflateEnd", "deflateBound", "deflateReset"};
    void *slots[5];
    void *library = understudy_compressor_open("libz.so.1", names, slots, 5);
    if (!library) return 0;
    api->library = library;
    *(void **)(&api->init2) = slots[0];
    *(void **)(&api->run) = slots[1];
    *(void **)(&api->end) = slots[2];
    *(void **)(&api->bound) = slots[3];
    *(void **)(&api->reset) = slots[4];
    return 1;
}

// deflateInit2 is a macro over deflateInit2_ (it passes the header's version and the stream's size),
// which Swift cannot expand; this does, through the opened library.
static inline int understudy_zlib_deflate_init(const understudy_zlib *api, z_streamp stream, int level,
                                               int window_bits) {
    return api->init2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                      (int)sizeof(z_stream));
}

/// brotli's one-shot encoder, declared here as <brotli/encode.h> (1.0 and later, an ABI-stable C API)
/// declares it, so building needs no libbrotli-dev: `BROTLI_BOOL` is an int, `BrotliEncoderMode` an
/// enum whose `BROTLI_MODE_GENERIC` is 0 (UNDERSTUDY_BROTLI_MODE_GENERIC).
typedef struct understudy_brotli {
    void *library;
    int (*compress)(int quality, int lgwin, int mode, size_t input_size, const uint8_t *input,
                    size_t *encoded_size, uint8_t *encoded);
    size_t (*max_size)(size_t input_size);
} understudy_brotli;

#define UNDERSTUDY_BROTLI_MODE_GENERIC 0
/// A brotli quality for answers made per request: 5 of 0–11 (11, the library's default, is far slower).
#define UNDERSTUDY_BROTLI_QUALITY 5
/// brotli's default window: 2^22 bytes.
#define UNDERSTUDY_BROTLI_WINDOW 22

/// Opens brotli's encoder and fills `api`; 0 when libbrotlienc.so.1 is not installed, else 1.
static inline int understudy_brotli_load(understudy_brotli *api) {
    static const char *const names[] = {"BrotliEncoderCompress", "BrotliEncoderMaxCompressedSize"};
    void *slots[2];
    void *library = understudy_compressor_open("libbrotlienc.so.1", names, slots, 2);
    if (!library) return 0;
    api->library = library;
    *(void **)(&api->compress) = slots[0];
    *(void **)(&api->max_size) = slots[1];
    return 1;
}

#endif
