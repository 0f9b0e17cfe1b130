#ifndef UNDERSTUDY_CCURL_SHIM_H
#define UNDERSTUDY_CCURL_SHIM_H
// libcurl (Debian libcurl4-openssl-dev), the client behind proxying stubs, driven through its
// multi-socket interface on the daemon's libevent loop. Header-only like the other shims, and with
// no `link`: the daemon opens libcurl.so.4 with dlopen the first time a stub proxies, so a daemon
// without proxy stubs neither loads libcurl and its ~25 dependencies at start-up nor pays for
// their relocation (scripts/bench --startup-callgrind). Every call goes through the table of
// entry points `understudy_curl_load` fills; the wrappers below also turn curl's variadic
// setopt/getinfo calls, which Swift cannot make, into typed ones.
#include <stddef.h>
#include <dlfcn.h>
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

typedef struct understudy_curl {
    void *library;
    CURLcode (*global_init)(long flags);
    const char *(*easy_strerror)(CURLcode code);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *handle);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_socket_action)(CURLM *multi, curl_socket_t socket, int mask, int *running);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} understudy_curl;

/// Opens libcurl and fills `api`; 0 when it is not installed or lacks an entry point (then
/// nothing stays open), else 1. curl_global_init runs here, once, on the loop's thread.
static inline int understudy_curl_load(understudy_curl *api) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    api->library = library;
#define UNDERSTUDY_CURL_SYMBOL(field, name) \
    *(void **)(&api->field) = dlsym(library, name); \
    if (!api->field) { dlclose(library); api->library = NULL; return 0; }
    UNDERSTUDY_CURL_SYMBOL(global_init, "curl_global_init")
    UNDERSTUDY_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    UNDERSTUDY_CURL_SYMBOL(easy_init, "curl_easy_init")
    UNDERSTUDY_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    UNDERSTUDY_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    UNDERSTUDY_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    UNDERSTUDY_CURL_SYMBOL(multi_init, "curl_multi_init")
    UNDERSTUDY_CURL_SYMBOL(multi_setopt, "curl_multi_setopt")
    UNDERSTUDY_CURL_SYMBOL(multi_add_handle, "curl_multi_add_handle")
    UNDERSTUDY_CURL_SYMBOL(multi_remove_handle, "curl_multi_remove_handle")
    UNDERSTUDY_CURL_SYMBOL(multi_socket_action, "curl_multi_socket_action")
    UNDERSTUDY_CURL_SYMBOL(multi_info_read, "curl_multi_info_read")
    UNDERSTUDY_CURL_SYMBOL(multi_cleanup, "curl_multi_cleanup")
    UNDERSTUDY_CURL_SYMBOL(slist_append, "curl_slist_append")
    UNDERSTUDY_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
#undef UNDERSTUDY_CURL_SYMBOL
    if (api->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        dlclose(library);
        api->library = NULL;
        return 0;
    }
    return 1;
}

/// Integers Swift cannot read from curl's macros.
enum {
    UNDERSTUDY_CURL_POLL_IN = CURL_POLL_IN,
    UNDERSTUDY_CURL_POLL_OUT = CURL_POLL_OUT,
    UNDERSTUDY_CURL_POLL_REMOVE = CURL_POLL_REMOVE,
    UNDERSTUDY_CURL_CSELECT_IN = CURL_CSELECT_IN,
    UNDERSTUDY_CURL_CSELECT_OUT = CURL_CSELECT_OUT,
    UNDERSTUDY_CURL_CSELECT_ERR = CURL_CSELECT_ERR,
    UNDERSTUDY_CURL_SOCKET_TIMEOUT = CURL_SOCKET_TIMEOUT,
    UNDERSTUDY_CURL_ERROR_SIZE = CURL_ERROR_SIZE,
};

typedef size_t (*understudy_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode understudy_curl_set_long(const understudy_curl *api, CURL *h, CURLoption option, long value) {
    return api->easy_setopt(h, option, value);
}
static inline CURLcode understudy_curl_set_offset(const understudy_curl *api, CURL *h, CURLoption option,
                                                  curl_off_t value) {
    return api->easy_setopt(h, option, value);
}
/// Strings (curl copies them), buffers and lists.
static inline CURLcode understudy_curl_set_pointer(const understudy_curl *api, CURL *h, CURLoption option,
                                                   const void *value) {
    return api->easy_setopt(h, option, value);
}
static inline CURLcode understudy_curl_set_data_callback(const understudy_curl *api, CURL *h, CURLoption option,
                                                         understudy_curl_data_callback callback) {
    return api->easy_setopt(h, option, callback);
}
static inline void *understudy_curl_private(const understudy_curl *api, CURL *h) {
    char *pointer = NULL;
    api->easy_getinfo(h, CURLINFO_PRIVATE, &pointer);
    return pointer;
}
static inline CURLMcode understudy_curl_multi_set_callbacks(const understudy_curl *api, CURLM *multi,
                                                            curl_socket_callback socket_callback,
                                                            curl_multi_timer_callback timer_callback,
                                                            void *context) {
    CURLMcode code = api->multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, socket_callback);
    if (code == CURLM_OK) code = api->multi_setopt(multi, CURLMOPT_SOCKETDATA, context);
    if (code == CURLM_OK) code = api->multi_setopt(multi, CURLMOPT_TIMERFUNCTION, timer_callback);
    if (code == CURLM_OK) code = api->multi_setopt(multi, CURLMOPT_TIMERDATA, context);
    return code;
}
/// A finished transfer from `curl_multi_info_read`: its handle, or NULL for any other message.
static inline CURL *understudy_curl_message_done(const CURLMsg *message) {
    return message->msg == CURLMSG_DONE ? message->easy_handle : NULL;
}
static inline CURLcode understudy_curl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
