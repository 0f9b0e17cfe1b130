#ifndef UNDERSTUDY_CLIBEVENT_TLS_SHIM_H
#define UNDERSTUDY_CLIBEVENT_TLS_SHIM_H
// The TLS half of the transport's C shim: certificate generation with OpenSSL's API, SSL contexts,
// libevent's OpenSSL bufferevents, and the HMAC webhook signatures are made with. Header-only
// (static inline), like CLibevent's shim, so it is compiled by Swift's importer: no C target, whose
// DWARF 5 debug info valgrind 3.19 (the callgrind gate) cannot read. Swift sees opaque pointers only.
//
// With no `link` and no pkgConfig, as CCurl and CZlib: the daemon opens libssl (which brings
// libcrypto) and libevent_openssl with dlopen the first time it needs them (an HTTPS listener's
// certificates, or a webhook's signature), so a daemon without TLS neither loads them nor relocates
// them at start-up (OpenSSL cost every start 3.4 M instructions and 1.7 MB of RSS: issue 46,
// scripts/bench --startup-callgrind). Every OpenSSL call goes through the table
// `understudy_openssl_load` fills. A binary linked with OpenSSL's static archives has them itself:
// scripts/release forces each entry point in and exports it as `understudy_linked_NAME` (the
// archives' own symbols stay local), where the table looks first (RTLD_DEFAULT), opening nothing.
// libc first (see CLibevent/shim.h): libevent's headers define _GNU_SOURCE.
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/opensslv.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#define UNDERSTUDY_TLS_STRINGIFY_(x) #x
#define UNDERSTUDY_TLS_STRINGIFY(x) UNDERSTUDY_TLS_STRINGIFY_(x)
/// libssl's soname for the headers built against (OpenSSL 3: libssl.so.3); it brings libcrypto.
#define UNDERSTUDY_LIBSSL "libssl.so." UNDERSTUDY_TLS_STRINGIFY(OPENSSL_VERSION_MAJOR)
/// libevent_openssl's soname (libevent 2.1's ABI, as libevent.so the daemon links).
#define UNDERSTUDY_LIBEVENT_OPENSSL "libevent_openssl-2.1.so.7"
/// dlsym's handle for the process's global scope (glibc's RTLD_DEFAULT, declared only with _GNU_SOURCE).
#define UNDERSTUDY_RTLD_DEFAULT ((void *)0)

// The OpenSSL (libssl, libcrypto) entry points the shim calls, each a slot of the same name in
// `understudy_openssl`. Macros of OpenSSL's are called through what they expand to (BIO_ctrl,
// SSL_CTX_ctrl, EVP_PKEY_Q_keygen).
#define UNDERSTUDY_OPENSSL_FUNCTIONS(F) \
    F(BIO_ctrl) F(BIO_free) F(BIO_new) F(BIO_s_mem) \
    F(BN_bin2bn) F(BN_free) F(BN_to_ASN1_INTEGER) \
    F(ERR_clear_error) F(ERR_error_string_n) F(ERR_get_error) \
    F(EVP_PKEY_Q_keygen) F(EVP_PKEY_free) F(EVP_sha256) F(HMAC) \
    F(PEM_write_bio_PrivateKey) F(PEM_write_bio_X509) F(RAND_bytes) \
    F(SSL_CTX_check_private_key) F(SSL_CTX_ctrl) F(SSL_CTX_free) F(SSL_CTX_new) \
    F(SSL_CTX_set_alpn_select_cb) F(SSL_CTX_set_options) F(SSL_CTX_use_PrivateKey) \
    F(SSL_CTX_use_PrivateKey_file) F(SSL_CTX_use_certificate) F(SSL_CTX_use_certificate_chain_file) \
    F(SSL_free) F(SSL_is_init_finished) F(SSL_new) F(SSL_select_next_proto) F(SSL_shutdown) \
    F(SSL_write) F(TLS_server_method) \
    F(X509V3_EXT_conf_nid) F(X509V3_set_ctx) F(X509_EXTENSION_free) F(X509_NAME_add_entry_by_txt) \
    F(X509_NAME_free) F(X509_NAME_new) F(X509_add_ext) F(X509_free) F(X509_get_serialNumber) \
    F(X509_get_subject_name) F(X509_getm_notAfter) F(X509_getm_notBefore) F(X509_gmtime_adj) \
    F(X509_new) F(X509_set_issuer_name) F(X509_set_pubkey) F(X509_set_subject_name) \
    F(X509_set_version) F(X509_sign)

// libevent_openssl's.
#define UNDERSTUDY_EVENT_OPENSSL_FUNCTIONS(F) \
    F(bufferevent_openssl_get_ssl) F(bufferevent_openssl_set_allow_dirty_shutdown) \
    F(bufferevent_openssl_socket_new)

/// The opened libraries and their entry points; filled once by understudy_openssl_load and only
/// read after it. Each slot has the declared function's own type.
typedef struct understudy_openssl {
    void *ssl;
    void *event_openssl;
#define UNDERSTUDY_OPENSSL_SLOT(name) __typeof__(name) *name;
    UNDERSTUDY_OPENSSL_FUNCTIONS(UNDERSTUDY_OPENSSL_SLOT)
    UNDERSTUDY_EVENT_OPENSSL_FUNCTIONS(UNDERSTUDY_OPENSSL_SLOT)
#undef UNDERSTUDY_OPENSSL_SLOT
} understudy_openssl;

/// Opens libssl (with libcrypto) and libevent_openssl and fills `api`; 1 on success, else 0 with
/// the reason (dlerror's, or the missing entry point) in `error`, and nothing left open.
static inline int understudy_openssl_load(understudy_openssl *api, char *error, size_t error_size) {
    memset(api, 0, sizeof *api);
    const char *missing = NULL;
    // Linked in (scripts/release): every entry point is the process's own, nothing to open.
#define UNDERSTUDY_OPENSSL_RESOLVE_AS(handle, name, symbol) \
    *(void **)(&api->name) = dlsym(handle, symbol); \
    if (!api->name && !missing) missing = #name;
#define UNDERSTUDY_OPENSSL_RESOLVE_IN(handle, name) UNDERSTUDY_OPENSSL_RESOLVE_AS(handle, name, #name)
#define UNDERSTUDY_OPENSSL_RESOLVE_LINKED(name) \
    UNDERSTUDY_OPENSSL_RESOLVE_AS(UNDERSTUDY_RTLD_DEFAULT, name, "understudy_linked_" #name)
    UNDERSTUDY_OPENSSL_FUNCTIONS(UNDERSTUDY_OPENSSL_RESOLVE_LINKED)
    UNDERSTUDY_EVENT_OPENSSL_FUNCTIONS(UNDERSTUDY_OPENSSL_RESOLVE_LINKED)
#undef UNDERSTUDY_OPENSSL_RESOLVE_LINKED
    if (!missing) return 1;
    missing = NULL;
    memset(api, 0, sizeof *api);
    api->ssl = dlopen(UNDERSTUDY_LIBSSL, RTLD_NOW | RTLD_LOCAL);
    if (api->ssl) api->event_openssl = dlopen(UNDERSTUDY_LIBEVENT_OPENSSL, RTLD_NOW | RTLD_LOCAL);
    if (!api->ssl || !api->event_openssl) {
        const char *reason = dlerror();
        snprintf(error, error_size, "cannot open %s: %s",
                 api->ssl ? UNDERSTUDY_LIBEVENT_OPENSSL : UNDERSTUDY_LIBSSL, reason ? reason : "not found");
        if (api->ssl) dlclose(api->ssl);
        api->ssl = NULL;
        return 0;
    }
    // dlsym on libssl's handle also searches its dependencies, libcrypto among them.
#define UNDERSTUDY_OPENSSL_RESOLVE(name) UNDERSTUDY_OPENSSL_RESOLVE_IN(api->ssl, name)
#define UNDERSTUDY_EVENT_OPENSSL_RESOLVE(name) UNDERSTUDY_OPENSSL_RESOLVE_IN(api->event_openssl, name)
    UNDERSTUDY_OPENSSL_FUNCTIONS(UNDERSTUDY_OPENSSL_RESOLVE)
    UNDERSTUDY_EVENT_OPENSSL_FUNCTIONS(UNDERSTUDY_EVENT_OPENSSL_RESOLVE)
#undef UNDERSTUDY_EVENT_OPENSSL_RESOLVE
#undef UNDERSTUDY_OPENSSL_RESOLVE
#undef UNDERSTUDY_OPENSSL_RESOLVE_IN
#undef UNDERSTUDY_OPENSSL_RESOLVE_AS
    if (missing) {
        snprintf(error, error_size, "%s or %s lacks %s", UNDERSTUDY_LIBSSL, UNDERSTUDY_LIBEVENT_OPENSSL, missing);
        dlclose(api->event_openssl);
        dlclose(api->ssl);
        memset(api, 0, sizeof *api);
        return 0;
    }
    return 1;
}

/// A private key with its certificate. Owned by the caller; free with understudy_tls_identity_free.
typedef struct understudy_tls_identity understudy_tls_identity;
/// An OpenSSL SSL_CTX. Owned by the caller; free with understudy_tls_context_free.
typedef struct understudy_tls_context understudy_tls_context;


struct understudy_tls_identity {
    EVP_PKEY *key;
    X509 *certificate;
};

static inline void understudy_tls_record_error(const understudy_openssl *api, char *error, size_t size,
                                               const char *what) {
    if (!error || size == 0) return;
    unsigned long code = api->ERR_get_error();
    if (code) {
        char reason[256];
        api->ERR_error_string_n(code, reason, sizeof reason);
        snprintf(error, size, "%s: %s", what, reason);
    } else {
        snprintf(error, size, "%s", what);
    }
    api->ERR_clear_error();
}

static inline EVP_PKEY *understudy_tls_new_key(const understudy_openssl *api) {
    // P-256: generation takes well under a millisecond, unlike RSA. (EVP_EC_gen, the macro.)
    return api->EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

static inline int understudy_tls_add_extension(const understudy_openssl *api, X509 *certificate, X509 *issuer, int nid,
                                               const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    api->X509V3_set_ctx(&context, issuer, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = api->X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (!extension) return 0;
    int ok = api->X509_add_ext(certificate, extension, -1);
    api->X509_EXTENSION_free(extension);
    return ok;
}

static inline int understudy_tls_set_serial(const understudy_openssl *api, X509 *certificate) {
    unsigned char bytes[16];
    if (api->RAND_bytes(bytes, sizeof bytes) != 1) return 0;
    bytes[0] &= 0x7f;  // positive
    BIGNUM *number = api->BN_bin2bn(bytes, sizeof bytes, NULL);
    if (!number) return 0;
    int ok = api->BN_to_ASN1_INTEGER(number, api->X509_get_serialNumber(certificate)) != NULL;
    api->BN_free(number);
    return ok;
}

static inline X509 *understudy_tls_new_certificate(const understudy_openssl *api, EVP_PKEY *key,
                                                   const char *common_name, long not_before, long not_after) {
    X509 *certificate = api->X509_new();
    if (!certificate) return NULL;
    X509_NAME *name = api->X509_NAME_new();
    int ok = api->X509_set_version(certificate, 2)
        && understudy_tls_set_serial(api, certificate)
        && api->X509_gmtime_adj(api->X509_getm_notBefore(certificate), not_before)
        && api->X509_gmtime_adj(api->X509_getm_notAfter(certificate), not_after)
        && api->X509_set_pubkey(certificate, key)
        && name
        && api->X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"Understudy", -1, -1, 0)
        && api->X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)common_name, -1, -1, 0)
        && api->X509_set_subject_name(certificate, name);
    api->X509_NAME_free(name);
    if (!ok) {
        api->X509_free(certificate);
        return NULL;
    }
    return certificate;
}

static inline understudy_tls_identity *understudy_tls_make_ca(const understudy_openssl *api, const char *common_name,
                                                              char *error, size_t error_size) {
    EVP_PKEY *key = understudy_tls_new_key(api);
    if (!key) { understudy_tls_record_error(api, error, error_size, "cannot generate the CA key"); return NULL; }
    X509 *certificate = understudy_tls_new_certificate(api, key, common_name, -3600L, 10L * 365 * 24 * 3600);
    int ok = certificate
        && api->X509_set_issuer_name(certificate, api->X509_get_subject_name(certificate))
        // What strict verifiers (Python 3.13's VERIFY_X509_STRICT, Apple's) require of a CA.
        && understudy_tls_add_extension(api, certificate, certificate, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        && understudy_tls_add_extension(api, certificate, certificate, NID_key_usage,
                                        "critical,keyCertSign,cRLSign,digitalSignature")
        && understudy_tls_add_extension(api, certificate, certificate, NID_subject_key_identifier, "hash")
        && understudy_tls_add_extension(api, certificate, certificate, NID_authority_key_identifier, "keyid:always")
        && api->X509_sign(certificate, key, api->EVP_sha256()) > 0;
    if (!ok) {
        understudy_tls_record_error(api, error, error_size, "cannot build the CA certificate");
        api->X509_free(certificate);
        api->EVP_PKEY_free(key);
        return NULL;
    }
    understudy_tls_identity *identity = calloc(1, sizeof *identity);
    identity->key = key;
    identity->certificate = certificate;
    return identity;
}

/// "DNS:a,IP:127.0.0.1,..." for the hosts list.
static inline char *understudy_tls_subject_alt_names(const char *hosts) {
    size_t capacity = strlen(hosts) * 2 + 64;
    char *out = calloc(1, capacity);
    char *copy = strdup(hosts);
    char *save = NULL;
    for (char *host = strtok_r(copy, ",", &save); host; host = strtok_r(NULL, ",", &save)) {
        unsigned char address[16];
        int is_ip = inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1;
        if (out[0]) strcat(out, ",");
        strcat(out, is_ip ? "IP:" : "DNS:");
        strcat(out, host);
    }
    free(copy);
    return out;
}

static inline understudy_tls_identity *understudy_tls_make_leaf(const understudy_openssl *api,
                                                                const understudy_tls_identity *issuer,
                                                                const char *common_name, const char *hosts,
                                                                long not_before_offset, long not_after_offset,
                                                                char *error, size_t error_size) {
    EVP_PKEY *key = understudy_tls_new_key(api);
    if (!key) { understudy_tls_record_error(api, error, error_size, "cannot generate the server key"); return NULL; }
    X509 *certificate = understudy_tls_new_certificate(api, key, common_name, not_before_offset, not_after_offset);
    char *names = understudy_tls_subject_alt_names(hosts);
    X509 *issuer_certificate = issuer->certificate;
    int ok = certificate
        && api->X509_set_issuer_name(certificate, api->X509_get_subject_name(issuer_certificate))
        && understudy_tls_add_extension(api, certificate, issuer_certificate, NID_basic_constraints, "critical,CA:FALSE")
        && understudy_tls_add_extension(api, certificate, issuer_certificate, NID_key_usage, "critical,digitalSignature")
        && understudy_tls_add_extension(api, certificate, issuer_certificate, NID_ext_key_usage, "serverAuth")
        && understudy_tls_add_extension(api, certificate, issuer_certificate, NID_subject_key_identifier, "hash")
        && understudy_tls_add_extension(api, certificate, issuer_certificate, NID_authority_key_identifier, "keyid:always")
        && understudy_tls_add_extension(api, certificate, issuer_certificate, NID_subject_alt_name, names)
        && api->X509_sign(certificate, issuer->key, api->EVP_sha256()) > 0;
    free(names);
    if (!ok) {
        understudy_tls_record_error(api, error, error_size, "cannot build the server certificate");
        api->X509_free(certificate);
        api->EVP_PKEY_free(key);
        return NULL;
    }
    understudy_tls_identity *identity = calloc(1, sizeof *identity);
    identity->key = key;
    identity->certificate = certificate;
    return identity;
}

static inline void understudy_tls_identity_free(const understudy_openssl *api, understudy_tls_identity *identity) {
    if (!identity) return;
    api->X509_free(identity->certificate);
    api->EVP_PKEY_free(identity->key);
    free(identity);
}

static inline char *understudy_tls_bio_string(const understudy_openssl *api, BIO *bio) {
    char *data = NULL;
    long length = api->BIO_ctrl(bio, BIO_CTRL_INFO, 0, (char *)&data);  // BIO_get_mem_data, the macro
    char *out = malloc((size_t)length + 1);
    memcpy(out, data, (size_t)length);
    out[length] = 0;
    api->BIO_free(bio);
    return out;
}

static inline char *understudy_tls_certificate_pem(const understudy_openssl *api,
                                                   const understudy_tls_identity *identity) {
    BIO *bio = api->BIO_new(api->BIO_s_mem());
    api->PEM_write_bio_X509(bio, identity->certificate);
    return understudy_tls_bio_string(api, bio);
}

static inline char *understudy_tls_key_pem(const understudy_openssl *api, const understudy_tls_identity *identity) {
    BIO *bio = api->BIO_new(api->BIO_s_mem());
    api->PEM_write_bio_PrivateKey(bio, identity->key, NULL, NULL, 0, NULL, NULL);
    return understudy_tls_bio_string(api, bio);
}

/// ALPN (RFC 7301): `h2` when the client offers it, else `http/1.1`; a client that offers neither
/// gets no ALPN answer and speaks HTTP/1.1. `argument` is the loaded `understudy_openssl`.
static inline int understudy_tls_select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_length,
                                             const unsigned char *offered, unsigned int offered_length, void *argument) {
    (void)ssl;
    const understudy_openssl *api = (const understudy_openssl *)argument;
    static const unsigned char preferred[] = "\x02h2\x08http/1.1";
    unsigned char *selected = NULL;
    if (api->SSL_select_next_proto(&selected, out_length, preferred, sizeof preferred - 1, offered, offered_length)
        != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

static inline SSL_CTX *understudy_tls_new_server_context(const understudy_openssl *api) {
    SSL_CTX *context = api->SSL_CTX_new(api->TLS_server_method());
    if (!context) return NULL;
    // SSL_CTX_set_min_proto_version and SSL_CTX_set_mode, the macros.
    api->SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    // A client that hangs up without close_notify is ordinary for HTTP; no need to log it as an error.
    api->SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
    api->SSL_CTX_ctrl(context, SSL_CTRL_MODE, SSL_MODE_RELEASE_BUFFERS, NULL);
    api->SSL_CTX_set_alpn_select_cb(context, understudy_tls_select_alpn, (void *)api);
    return context;
}

static inline understudy_tls_context *understudy_tls_context_new(const understudy_openssl *api,
                                                                 const understudy_tls_identity *leaf, char *error,
                                                                 size_t error_size) {
    SSL_CTX *context = understudy_tls_new_server_context(api);
    if (!context || api->SSL_CTX_use_certificate(context, leaf->certificate) != 1
        || api->SSL_CTX_use_PrivateKey(context, leaf->key) != 1 || api->SSL_CTX_check_private_key(context) != 1) {
        understudy_tls_record_error(api, error, error_size, "cannot set up the TLS context");
        api->SSL_CTX_free(context);
        return NULL;
    }
    return (understudy_tls_context *)context;
}

static inline understudy_tls_context *understudy_tls_context_from_files(const understudy_openssl *api,
                                                                        const char *certificate_path,
                                                                        const char *key_path, char *error,
                                                                        size_t error_size) {
    SSL_CTX *context = understudy_tls_new_server_context(api);
    if (!context) { understudy_tls_record_error(api, error, error_size, "cannot set up the TLS context"); return NULL; }
    if (api->SSL_CTX_use_certificate_chain_file(context, certificate_path) != 1) {
        char what[1200];
        snprintf(what, sizeof what, "cannot read the certificate chain (PEM) in %s", certificate_path);
        understudy_tls_record_error(api, error, error_size, what);
        api->SSL_CTX_free(context);
        return NULL;
    }
    if (api->SSL_CTX_use_PrivateKey_file(context, key_path, SSL_FILETYPE_PEM) != 1) {
        char what[1200];
        snprintf(what, sizeof what, "cannot read the private key (PEM) in %s", key_path);
        understudy_tls_record_error(api, error, error_size, what);
        api->SSL_CTX_free(context);
        return NULL;
    }
    if (api->SSL_CTX_check_private_key(context) != 1) {
        understudy_tls_record_error(api, error, error_size, "the private key does not match the certificate");
        api->SSL_CTX_free(context);
        return NULL;
    }
    return (understudy_tls_context *)context;
}

static inline void understudy_tls_context_free(const understudy_openssl *api, understudy_tls_context *context) {
    api->SSL_CTX_free((SSL_CTX *)context);
}

/// A server-side TLS bufferevent on an accepted socket, which it closes when freed.
static inline struct bufferevent *understudy_tls_bufferevent_new_socket(const understudy_openssl *api,
                                                                         struct event_base *base, evutil_socket_t fd,
                                                                         understudy_tls_context *context) {
    SSL *ssl = api->SSL_new((SSL_CTX *)context);
    if (!ssl) return NULL;
    struct bufferevent *bufferevent = api->bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                                          BEV_OPT_CLOSE_ON_FREE);
    if (!bufferevent) {
        api->SSL_free(ssl);
        return NULL;
    }
    api->bufferevent_openssl_set_allow_dirty_shutdown(bufferevent, 1);
    return bufferevent;
}

static inline void understudy_tls_write_and_close(const understudy_openssl *api, struct bufferevent *bufferevent,
                                                  const void *bytes, size_t count) {
    SSL *ssl = api->bufferevent_openssl_get_ssl(bufferevent);
    if (!ssl || !api->SSL_is_init_finished(ssl)) return;
    if (count > 0) (void)api->SSL_write(ssl, bytes, (int)count);
    (void)api->SSL_shutdown(ssl);
    api->ERR_clear_error();
}

/// HMAC-SHA256 of `message` under `key` into `digest` (EVP_MAX_MD_SIZE bytes); its length, 0 on failure.
static inline unsigned int understudy_hmac_sha256(const understudy_openssl *api, const void *key, int key_length,
                                                  const unsigned char *message, size_t message_length,
                                                  unsigned char *digest) {
    unsigned int length = 0;
    if (!api->HMAC(api->EVP_sha256(), key, key_length, message, message_length, digest, &length)) return 0;
    return length;
}

#endif
