#ifndef UNDERSTUDY_CLIBEVENT_SHIM_H
#define UNDERSTUDY_CLIBEVENT_SHIM_H
// libc first: libevent's event-config.h defines _GNU_SOURCE, and if it is seen before these
// headers, `import Glibc` in the same Swift module sees different declarations and breaks.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <event2/event.h>
#include <event2/http.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/keyvalq_struct.h>
#include <event2/util.h>
#include <event2/listener.h>

// libevent 2.1 has no accessor for a request's HTTP version, which is also the version its reply's
// status line carries (`HTTP/%d.%d` from these two `char`s). Its public (if deprecated)
// http_struct.h has the layout; it is read under another tag, because a complete
// `struct evhttp_request` would make Swift import every `evhttp_request *` as a typed pointer
// instead of the OpaquePointer the transport passes around.
#define evhttp_request understudy_evhttp_request_layout
#include <event2/http_struct.h>
#undef evhttp_request

// Header lists are TAILQs; TAILQ_FIRST/TAILQ_NEXT are macros Swift cannot call, so these two
// wrappers are the only way to walk evhttp's parsed request headers in arrival order.
static inline struct evkeyval *understudy_keyvalq_first(struct evkeyvalq *headers) {
    return headers->tqh_first;
}

static inline struct evkeyval *understudy_keyval_next(struct evkeyval *header) {
    return header->next.tqe_next;
}

static inline int understudy_request_major(struct evhttp_request *request) {
    return ((struct understudy_evhttp_request_layout *)request)->major;
}

static inline int understudy_request_minor(struct evhttp_request *request) {
    return ((struct understudy_evhttp_request_layout *)request)->minor;
}

#endif
