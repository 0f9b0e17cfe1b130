/*
 * Sends an exact number of requests, so a run is reproducible where wrk's timed runs are not:
 * the memory scenario needs "after 1 000 000 requests", and callgrind needs the same work every time.
 *
 * Usage: fixed_load PORT REQUESTS CONNECTIONS PATH [PATH...]
 *   Keeps CONNECTIONS keep-alive connections to 127.0.0.1:PORT busy (one request in flight on each)
 *   until REQUESTS answers have arrived, cycling through the PATHs. Reconnects when the server closes.
 *   Prints: requests=N seconds=S rps=R non2xx=K reconnects=C
 *   FIXED_LOAD_HEADER="Name: value" adds that header field to every request (scripts/bench --replay
 *   sends one Idempotency-Key, so every request after the first is a replay).
 *   Exit 1 on a malformed answer or when nothing can connect.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { BUFFER = 65536, MAX_CONNECTIONS = 1024 };

struct connection {
    int fd;
    char buffer[BUFFER];
    size_t have;
    int awaiting;    /* a request was sent and its answer is not complete yet */
};

static int port;
static char **paths;
static int path_count;
static long next_path;
static const char *extra_header = "";  /* "Name: value\r\n", or nothing */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int open_connection(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) { perror("fixed_load: socket"); exit(1); }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        fprintf(stderr, "fixed_load: connect to port %d: %s\n", port, strerror(errno));
        exit(1);
    }
    return fd;
}

static void send_request(struct connection *c) {
    char request[1024];
    const char *path = paths[next_path++ % path_count];
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: fixed_load\r\n%s\r\n", path, port,
                          extra_header);
    /* A request this small fits in the socket buffer, so one write suffices. */
    if (write(c->fd, request, (size_t)length) != length) {
        close(c->fd);
        c->fd = open_connection();
        if (write(c->fd, request, (size_t)length) != length) { perror("fixed_load: write"); exit(1); }
    }
    c->have = 0;
    c->awaiting = 1;
}

/* Returns the length of a complete response at the start of the buffer, 0 if incomplete. */
static size_t complete_response(struct connection *c, int *status, int *closes) {
    c->buffer[c->have] = 0;
    char *end = strstr(c->buffer, "\r\n\r\n");
    if (!end) return 0;
    if (sscanf(c->buffer, "HTTP/1.%*d %d", status) != 1) {
        fprintf(stderr, "fixed_load: not an HTTP response: %.40s\n", c->buffer);
        exit(1);
    }
    long content_length = -1;
    *closes = 0;
    for (char *line = strstr(c->buffer, "\r\n") + 2; line < end; line = strstr(line, "\r\n") + 2) {
        if (strncasecmp(line, "Content-Length:", 15) == 0) content_length = strtol(line + 15, NULL, 10);
        if (strncasecmp(line, "Connection:", 11) == 0) {
            char *value = line + 11;
            while (*value == ' ') value++;
            if (strncasecmp(value, "close", 5) == 0) *closes = 1;
        }
    }
    if (content_length < 0) {
        fprintf(stderr, "fixed_load: response without Content-Length\n");
        exit(1);
    }
    size_t total = (size_t)(end + 4 - c->buffer) + (size_t)content_length;
    return c->have >= total ? total : 0;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: fixed_load PORT REQUESTS CONNECTIONS PATH [PATH...]\n");
        return 2;
    }
    const char *header = getenv("FIXED_LOAD_HEADER");
    if (header && *header) {
        static char line[512];
        snprintf(line, sizeof line, "%s\r\n", header);
        extra_header = line;
    }
    port = atoi(argv[1]);
    long target = atol(argv[2]);
    int count = atoi(argv[3]);
    paths = argv + 4;
    path_count = argc - 4;
    if (count < 1 || count > MAX_CONNECTIONS) { fprintf(stderr, "fixed_load: 1..%d connections\n", MAX_CONNECTIONS); return 2; }
    signal(SIGPIPE, SIG_IGN);

    static struct connection connections[MAX_CONNECTIONS];
    struct pollfd polls[MAX_CONNECTIONS];
    long sent = 0, answered = 0, non2xx = 0, reconnects = 0;
    double start = now_s();
    for (int i = 0; i < count; i++) {
        connections[i].fd = open_connection();
        if (sent < target) { send_request(&connections[i]); sent++; }
    }
    while (answered < target) {
        for (int i = 0; i < count; i++) { polls[i].fd = connections[i].awaiting ? connections[i].fd : -1; polls[i].events = POLLIN; }
        if (poll(polls, (nfds_t)count, 10000) <= 0) { fprintf(stderr, "fixed_load: no answer for 10 s\n"); return 1; }
        for (int i = 0; i < count; i++) {
            if (!(polls[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            struct connection *c = &connections[i];
            ssize_t n = read(c->fd, c->buffer + c->have, BUFFER - 1 - c->have);
            if (n <= 0) {
                /* Closed before answering: the request is lost, so send it again on a new connection. */
                close(c->fd);
                c->fd = open_connection();
                reconnects++;
                send_request(c);
                continue;
            }
            c->have += (size_t)n;
            int status, closes;
            if (!complete_response(c, &status, &closes)) {
                if (c->have >= BUFFER - 1) { fprintf(stderr, "fixed_load: response over %d bytes\n", BUFFER); return 1; }
                continue;
            }
            answered++;
            if (status < 200 || status > 299) non2xx++;
            c->awaiting = 0;
            if (closes) { close(c->fd); c->fd = open_connection(); reconnects++; }
            if (sent < target) { send_request(c); sent++; }
        }
    }
    double seconds = now_s() - start;
    printf("requests=%ld seconds=%.3f rps=%.0f non2xx=%ld reconnects=%ld\n",
           answered, seconds, answered / seconds, non2xx, reconnects);
    for (int i = 0; i < count; i++) close(connections[i].fd);
    return 0;
}
