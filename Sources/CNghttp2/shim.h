#ifndef UNDERSTUDY_CNGHTTP2_SHIM_H
#define UNDERSTUDY_CNGHTTP2_SHIM_H
// nghttp2 (Debian libnghttp2-dev), the HTTP/2 codec behind the transport's HTTP/2 connections.
// Header-only like CLibevent's shim (no C target: valgrind 3.19 cannot read a C target's DWARF 5).
// The accessors read nghttp2's frame union and enums as plain integers, so the Swift side needs
// no union or enum casts.
#include <sys/types.h>
#include <stdint.h>
#include <string.h>

#include <nghttp2/nghttp2.h>

static inline uint8_t understudy_h2_frame_type(const nghttp2_frame *frame) { return frame->hd.type; }
static inline uint8_t understudy_h2_frame_flags(const nghttp2_frame *frame) { return frame->hd.flags; }
static inline int32_t understudy_h2_frame_stream_id(const nghttp2_frame *frame) { return frame->hd.stream_id; }
static inline int understudy_h2_is_request_headers(const nghttp2_frame *frame) {
    return frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST;
}
static inline int understudy_h2_ends_stream(const nghttp2_frame *frame) {
    return (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA)
        && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
}

/// Frame types and error codes, as integers.
enum {
    UNDERSTUDY_H2_NO_ERROR = NGHTTP2_NO_ERROR,
    UNDERSTUDY_H2_PROTOCOL_ERROR = NGHTTP2_PROTOCOL_ERROR,
    UNDERSTUDY_H2_INTERNAL_ERROR = NGHTTP2_INTERNAL_ERROR,
    UNDERSTUDY_H2_REFUSED_STREAM = NGHTTP2_REFUSED_STREAM,
    UNDERSTUDY_H2_CANCEL = NGHTTP2_CANCEL,
    UNDERSTUDY_H2_ENHANCE_YOUR_CALM = NGHTTP2_ENHANCE_YOUR_CALM,
    UNDERSTUDY_H2_ERR_DEFERRED = NGHTTP2_ERR_DEFERRED,
    UNDERSTUDY_H2_ERR_CALLBACK_FAILURE = NGHTTP2_ERR_CALLBACK_FAILURE,
    UNDERSTUDY_H2_ERR_TEMPORAL_CALLBACK_FAILURE = NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE,
    UNDERSTUDY_H2_DATA_FLAG_EOF = NGHTTP2_DATA_FLAG_EOF,
};

/// The server's SETTINGS: a stream cap (HTTP2Session gives nghttp2 none and announces its own),
/// and a 1 MiB stream window so bodies need few WINDOW_UPDATEs.
static inline int understudy_h2_submit_settings(nghttp2_session *session, uint32_t max_concurrent_streams) {
    nghttp2_settings_entry settings[2] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, max_concurrent_streams},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20},
    };
    return nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings, 2);
}

/// Limits against abuse, on top of nghttp2's own defaults: a cap on SETTINGS per frame and on
/// queued SETTINGS/PING acks (SETTINGS and PING floods), on CONTINUATION frames per header block
/// (the 2024 CONTINUATION flood), on header list size, and on stream resets a client may cause
/// (rapid reset, CVE-2023-44487: nghttp2 answers a burst with GOAWAY ENHANCE_YOUR_CALM).
static inline nghttp2_option *understudy_h2_new_option(void) {
    nghttp2_option *option = NULL;
    if (nghttp2_option_new(&option) != 0) return NULL;
    nghttp2_option_set_max_settings(option, 32);
    nghttp2_option_set_max_outbound_ack(option, 1000);
    nghttp2_option_set_max_continuations(option, 8);
    nghttp2_option_set_max_send_header_block_length(option, 64 * 1024);
    nghttp2_option_set_stream_reset_rate_limit(option, 1000, 33);
    return option;
}

/// A response whose body comes from `read_callback`, with `source` (an opaque pointer) as its
/// data source; `read_callback` NULL: no body (END_STREAM on the HEADERS).
static inline int understudy_h2_submit_response(nghttp2_session *session, int32_t stream_id, const nghttp2_nv *nva,
                                                size_t count, void *source, nghttp2_data_source_read_callback read_callback) {
    if (!read_callback) return nghttp2_submit_response(session, stream_id, nva, count, NULL);
    nghttp2_data_provider provider;
    provider.source.ptr = source;
    provider.read_callback = read_callback;
    return nghttp2_submit_response(session, stream_id, nva, count, &provider);
}

/// HEADERS without END_STREAM and no body to follow (a fault sends something else next).
static inline int understudy_h2_submit_headers_only(nghttp2_session *session, int32_t stream_id, const nghttp2_nv *nva,
                                                    size_t count) {
    return nghttp2_submit_headers(session, NGHTTP2_FLAG_NONE, stream_id, NULL, nva, count, NULL);
}

static inline nghttp2_nv understudy_h2_nv(const uint8_t *name, size_t name_length, const uint8_t *value, size_t value_length) {
    nghttp2_nv nv = {(uint8_t *)name, (uint8_t *)value, name_length, value_length, NGHTTP2_NV_FLAG_NONE};
    return nv;
}

#endif
