#ifndef UNDERSTUDY_TLS_H
#define UNDERSTUDY_TLS_H
// The TLS half of the transport's C shim: certificate generation, SSL contexts and libevent's
// OpenSSL bufferevents. Only opaque pointers cross into Swift, so no OpenSSL header is seen by
// a Swift module (and none of its macros or _GNU_SOURCE games reach Glibc's import).
#include <stddef.h>

struct event_base;
struct bufferevent;

/// A private key with its certificate. Owned by the caller; free with understudy_tls_identity_free.
typedef struct understudy_tls_identity understudy_tls_identity;
/// An OpenSSL SSL_CTX. Owned by the caller; free with understudy_tls_context_free.
typedef struct understudy_tls_context understudy_tls_context;

/// A fresh self-signed CA (EC P-256, SHA-256) named `common_name`, valid from an hour ago for ten years.
understudy_tls_identity *understudy_tls_make_ca(const char *common_name, char *error, size_t error_size);

/// A server certificate issued by `issuer` for `hosts` (comma-separated; IP literals become IP
/// SANs, the rest DNS SANs), valid from now + `not_before_offset` to now + `not_after_offset` seconds.
understudy_tls_identity *understudy_tls_make_leaf(const understudy_tls_identity *issuer, const char *common_name,
                                                  const char *hosts, long not_before_offset, long not_after_offset,
                                                  char *error, size_t error_size);

void understudy_tls_identity_free(understudy_tls_identity *identity);

/// The certificate as PEM, NUL-terminated; free() it.
char *understudy_tls_certificate_pem(const understudy_tls_identity *identity);
/// The private key as unencrypted PKCS#8 PEM, NUL-terminated; free() it.
char *understudy_tls_key_pem(const understudy_tls_identity *identity);

/// A server context presenting `leaf` (TLS 1.2 and 1.3).
understudy_tls_context *understudy_tls_context_new(const understudy_tls_identity *leaf, char *error, size_t error_size);
/// A server context presenting the PEM chain in `certificate_path` with the key in `key_path`.
understudy_tls_context *understudy_tls_context_from_files(const char *certificate_path, const char *key_path,
                                                          char *error, size_t error_size);
void understudy_tls_context_free(understudy_tls_context *context);

/// A server-side OpenSSL bufferevent with no socket yet (evhttp sets it), that frees its SSL and
/// closes the socket when freed and reports a peer's close without close_notify as plain EOF.
struct bufferevent *understudy_tls_bufferevent_new(struct event_base *base, understudy_tls_context *context);

/// Whether `bufferevent` is a TLS one.
int understudy_tls_is_tls(struct bufferevent *bufferevent);

/// For faults on a TLS connection: writes `bytes` inside the TLS stream straight through its SSL
/// (the bufferevent is about to be freed and would never flush them), then sends close_notify, so
/// the client sees exactly what a plain-HTTP client would (those bytes, then a clean end of stream).
void understudy_tls_write_and_close(struct bufferevent *bufferevent, const void *bytes, size_t count);

#endif
