#ifndef UNDERSTUDY_CZLIB_SHIM_H
#define UNDERSTUDY_CZLIB_SHIM_H
// zlib (zlib1g-dev): the transport compresses a stub's body with it (`compress`: gzip and deflate).
#include <zlib.h>

// deflateInit2 is a macro over deflateInit2_ (it passes the library's version and the stream's size),
// which Swift cannot call; this wraps it.
static inline int understudy_deflate_init(z_streamp stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}

#endif
