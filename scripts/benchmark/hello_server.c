/*
 * The baseline for scripts/bench: the least an evhttp server can do per request.
 * One event loop, one thread, every request answered 200 "hello" (text/plain) with no routing,
 * no logging and no allocation beyond libevent's own. Understudy runs on the same libevent, so the
 * gap between the two is what Understudy's own work costs.
 *
 * Usage: hello_server [PORT] [--changelist]   (default port 0 = any free port)
 *   --changelist builds the event base with EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST: epoll_ctl calls
 *   are batched per loop pass and redundant ones (delete then re-add the same event) cancel out.
 *   The second baseline of scripts/bench: what the same evhttp server does with that one flag.
 * Prints "hello listening on http://127.0.0.1:PORT" once accepting, the same shape as
 * Understudy's readiness line, so the driver treats both servers alike. SIGTERM/SIGINT stop it.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

static struct evbuffer *body_template;

static void answer(struct evhttp_request *request, void *context) {
    (void)context;
    struct evbuffer *body = evbuffer_new();
    /* A reference, not a copy: the same five bytes go out on every request. */
    evbuffer_add_buffer_reference(body, body_template);
    evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", "text/plain");
    evhttp_send_reply(request, 200, "OK", body);
    evbuffer_free(body);
}

static void stop(evutil_socket_t signal_number, short events, void *base) {
    (void)signal_number; (void)events;
    event_base_loopexit(base, NULL);
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 0;
    signal(SIGPIPE, SIG_IGN);
    body_template = evbuffer_new();
    evbuffer_add(body_template, "hello", 5);

    int changelist = argc > 2 && strcmp(argv[2], "--changelist") == 0;
    struct event_config *config = event_config_new();
    if (changelist) event_config_set_flag(config, EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST);
    struct event_base *base = event_base_new_with_config(config);
    event_config_free(config);
    struct evhttp *http = evhttp_new(base);
    if (!base || !http) { fprintf(stderr, "hello_server: libevent initialisation failed\n"); return 1; }
    evhttp_set_gencb(http, answer, NULL);
    struct evhttp_bound_socket *bound = evhttp_bind_socket_with_handle(http, "127.0.0.1", (ev_uint16_t)port);
    if (!bound) { fprintf(stderr, "hello_server: cannot bind 127.0.0.1:%d\n", port); return 1; }

    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *)&address, &length) != 0) {
        perror("hello_server: getsockname");
        return 1;
    }
    struct event *term = evsignal_new(base, SIGTERM, stop, base);
    struct event *interrupt = evsignal_new(base, SIGINT, stop, base);
    event_add(term, NULL);
    event_add(interrupt, NULL);

    printf(changelist ? "hello (changelist) listening on http://127.0.0.1:%d\n"
                      : "hello listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);
    event_base_dispatch(base);

    event_free(term);
    event_free(interrupt);
    evhttp_free(http);
    event_base_free(base);
    evbuffer_free(body_template);
    return 0;
}
