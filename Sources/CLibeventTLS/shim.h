#ifndef UNDERSTUDY_CLIBEVENT_TLS_SHIM_H
#define UNDERSTUDY_CLIBEVENT_TLS_SHIM_H
// The TLS half of the transport's C shim: certificate generation with OpenSSL's API, SSL contexts
// and libevent's OpenSSL bufferevents. Header-only (static inline), like CLibevent's shim, so it
// is compiled by Swift's importer: no C target, whose DWARF 5 debug info valgrind 3.19 (the
// callgrind gate) cannot read. Swift sees opaque pointers only.
// libc first (see CLibevent/shim.h): libevent's headers define _GNU_SOURCE.
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

/// A private key with its certificate. Owned by the caller; free with understudy_tls_identity_free.
typedef struct understudy_tls_identity understudy_tls_identity;
/// An OpenSSL SSL_CTX. Owned by the caller; free with understudy_tls_context_free.
typedef struct understudy_tls_context understudy_tls_context;


struct understudy_tls_identity {
    EVP_PKEY *key;
    X509 *certificate;
};

static inline void understudy_tls_record_error(char *error, size_t size, const char *what) {
    if (!error || size == 0) return;
    unsigned long code = ERR_get_error();
    if (code) {
        char reason[256];
        ERR_error_string_n(code, reason, sizeof reason);
        snprintf(error, size, "%s: %s", what, reason);
    } else {
        snprintf(error, size, "%s", what);
    }
    ERR_clear_error();
}

static inline EVP_PKEY *understudy_tls_new_key(void) {
    // P-256: generation takes well under a millisecond, unlike RSA.
    return EVP_EC_gen("P-256");
}

static inline int understudy_tls_add_extension(X509 *certificate, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (!extension) return 0;
    int ok = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return ok;
}

static inline int understudy_tls_set_serial(X509 *certificate) {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1) return 0;
    bytes[0] &= 0x7f;  // positive
    BIGNUM *number = BN_bin2bn(bytes, sizeof bytes, NULL);
    if (!number) return 0;
    int ok = BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != NULL;
    BN_free(number);
    return ok;
}

static inline X509 *understudy_tls_new_certificate(EVP_PKEY *key, const char *common_name, long not_before, long not_after) {
    X509 *certificate = X509_new();
    if (!certificate) return NULL;
    X509_NAME *name = X509_NAME_new();
    int ok = X509_set_version(certificate, 2)
        && understudy_tls_set_serial(certificate)
        && X509_gmtime_adj(X509_getm_notBefore(certificate), not_before)
        && X509_gmtime_adj(X509_getm_notAfter(certificate), not_after)
        && X509_set_pubkey(certificate, key)
        && name
        && X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"Understudy", -1, -1, 0)
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)common_name, -1, -1, 0)
        && X509_set_subject_name(certificate, name);
    X509_NAME_free(name);
    if (!ok) {
        X509_free(certificate);
        return NULL;
    }
    return certificate;
}

static inline understudy_tls_identity *understudy_tls_make_ca(const char *common_name, char *error, size_t error_size) {
    EVP_PKEY *key = understudy_tls_new_key();
    if (!key) { understudy_tls_record_error(error, error_size, "cannot generate the CA key"); return NULL; }
    X509 *certificate = understudy_tls_new_certificate(key, common_name, -3600L, 10L * 365 * 24 * 3600);
    int ok = certificate
        && X509_set_issuer_name(certificate, X509_get_subject_name(certificate))
        // What strict verifiers (Python 3.13's VERIFY_X509_STRICT, Apple's) require of a CA.
        && understudy_tls_add_extension(certificate, certificate, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        && understudy_tls_add_extension(certificate, certificate, NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature")
        && understudy_tls_add_extension(certificate, certificate, NID_subject_key_identifier, "hash")
        && understudy_tls_add_extension(certificate, certificate, NID_authority_key_identifier, "keyid:always")
        && X509_sign(certificate, key, EVP_sha256()) > 0;
    if (!ok) {
        understudy_tls_record_error(error, error_size, "cannot build the CA certificate");
        X509_free(certificate);
        EVP_PKEY_free(key);
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

static inline understudy_tls_identity *understudy_tls_make_leaf(const understudy_tls_identity *issuer, const char *common_name,
                                                  const char *hosts, long not_before_offset, long not_after_offset,
                                                  char *error, size_t error_size) {
    EVP_PKEY *key = understudy_tls_new_key();
    if (!key) { understudy_tls_record_error(error, error_size, "cannot generate the server key"); return NULL; }
    X509 *certificate = understudy_tls_new_certificate(key, common_name, not_before_offset, not_after_offset);
    char *names = understudy_tls_subject_alt_names(hosts);
    int ok = certificate
        && X509_set_issuer_name(certificate, X509_get_subject_name(issuer->certificate))
        && understudy_tls_add_extension(certificate, issuer->certificate, NID_basic_constraints, "critical,CA:FALSE")
        && understudy_tls_add_extension(certificate, issuer->certificate, NID_key_usage, "critical,digitalSignature")
        && understudy_tls_add_extension(certificate, issuer->certificate, NID_ext_key_usage, "serverAuth")
        && understudy_tls_add_extension(certificate, issuer->certificate, NID_subject_key_identifier, "hash")
        && understudy_tls_add_extension(certificate, issuer->certificate, NID_authority_key_identifier, "keyid:always")
        && understudy_tls_add_extension(certificate, issuer->certificate, NID_subject_alt_name, names)
        && X509_sign(certificate, issuer->key, EVP_sha256()) > 0;
    free(names);
    if (!ok) {
        understudy_tls_record_error(error, error_size, "cannot build the server certificate");
        X509_free(certificate);
        EVP_PKEY_free(key);
        return NULL;
    }
    understudy_tls_identity *identity = calloc(1, sizeof *identity);
    identity->key = key;
    identity->certificate = certificate;
    return identity;
}

static inline void understudy_tls_identity_free(understudy_tls_identity *identity) {
    if (!identity) return;
    X509_free(identity->certificate);
    EVP_PKEY_free(identity->key);
    free(identity);
}

static inline char *understudy_tls_bio_string(BIO *bio) {
    char *data = NULL;
    long length = BIO_get_mem_data(bio, &data);
    char *out = malloc((size_t)length + 1);
    memcpy(out, data, (size_t)length);
    out[length] = 0;
    BIO_free(bio);
    return out;
}

static inline char *understudy_tls_certificate_pem(const understudy_tls_identity *identity) {
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, identity->certificate);
    return understudy_tls_bio_string(bio);
}

static inline char *understudy_tls_key_pem(const understudy_tls_identity *identity) {
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, identity->key, NULL, NULL, 0, NULL, NULL);
    return understudy_tls_bio_string(bio);
}

/// ALPN (RFC 7301): `h2` when the client offers it, else `http/1.1`; a client that offers neither
/// gets no ALPN answer and speaks HTTP/1.1.
static inline int understudy_tls_select_alpn(SSL *ssl, const unsigned char **out, unsigned char *out_length,
                                             const unsigned char *offered, unsigned int offered_length, void *argument) {
    (void)ssl;
    (void)argument;
    static const unsigned char preferred[] = "\x02h2\x08http/1.1";
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, out_length, preferred, sizeof preferred - 1, offered, offered_length)
        != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

static inline SSL_CTX *understudy_tls_new_server_context(void) {
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (!context) return NULL;
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    // A client that hangs up without close_notify is ordinary for HTTP; no need to log it as an error.
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_alpn_select_cb(context, understudy_tls_select_alpn, NULL);
    return context;
}

static inline understudy_tls_context *understudy_tls_context_new(const understudy_tls_identity *leaf, char *error, size_t error_size) {
    SSL_CTX *context = understudy_tls_new_server_context();
    if (!context || SSL_CTX_use_certificate(context, leaf->certificate) != 1
        || SSL_CTX_use_PrivateKey(context, leaf->key) != 1 || SSL_CTX_check_private_key(context) != 1) {
        understudy_tls_record_error(error, error_size, "cannot set up the TLS context");
        SSL_CTX_free(context);
        return NULL;
    }
    return (understudy_tls_context *)context;
}

static inline understudy_tls_context *understudy_tls_context_from_files(const char *certificate_path, const char *key_path,
                                                          char *error, size_t error_size) {
    SSL_CTX *context = understudy_tls_new_server_context();
    if (!context) { understudy_tls_record_error(error, error_size, "cannot set up the TLS context"); return NULL; }
    if (SSL_CTX_use_certificate_chain_file(context, certificate_path) != 1) {
        char what[1200];
        snprintf(what, sizeof what, "cannot read the certificate chain (PEM) in %s", certificate_path);
        understudy_tls_record_error(error, error_size, what);
        SSL_CTX_free(context);
        return NULL;
    }
    if (SSL_CTX_use_PrivateKey_file(context, key_path, SSL_FILETYPE_PEM) != 1) {
        char what[1200];
        snprintf(what, sizeof what, "cannot read the private key (PEM) in %s", key_path);
        understudy_tls_record_error(error, error_size, what);
        SSL_CTX_free(context);
        return NULL;
    }
    if (SSL_CTX_check_private_key(context) != 1) {
        understudy_tls_record_error(error, error_size, "the private key does not match the certificate");
        SSL_CTX_free(context);
        return NULL;
    }
    return (understudy_tls_context *)context;
}

static inline void understudy_tls_context_free(understudy_tls_context *context) {
    SSL_CTX_free((SSL_CTX *)context);
}

/// A server-side TLS bufferevent on an accepted socket, which it closes when freed.
static inline struct bufferevent *understudy_tls_bufferevent_new_socket(struct event_base *base, evutil_socket_t fd,
                                                                         understudy_tls_context *context) {
    SSL *ssl = SSL_new((SSL_CTX *)context);
    if (!ssl) return NULL;
    struct bufferevent *bufferevent = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                                     BEV_OPT_CLOSE_ON_FREE);
    if (!bufferevent) {
        SSL_free(ssl);
        return NULL;
    }
    bufferevent_openssl_set_allow_dirty_shutdown(bufferevent, 1);
    return bufferevent;
}

static inline int understudy_tls_is_tls(struct bufferevent *bufferevent) {
    return bufferevent_openssl_get_ssl(bufferevent) != NULL;
}

static inline void understudy_tls_write_and_close(struct bufferevent *bufferevent, const void *bytes, size_t count) {
    SSL *ssl = bufferevent_openssl_get_ssl(bufferevent);
    if (!ssl || !SSL_is_init_finished(ssl)) return;
    if (count > 0) (void)SSL_write(ssl, bytes, (int)count);
    (void)SSL_shutdown(ssl);
    ERR_clear_error();
}

#endif
