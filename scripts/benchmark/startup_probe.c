/*
 * Measures start-up as a test suite sees it: from exec of the server to the first 200 answer.
 *
 * Usage: startup_probe PORT PATH CPU TIMEOUT_MS LOG -- COMMAND [ARG...]
 *   Forks, pins the child to CPU (-1: no pinning), execs COMMAND (stdout to /dev/null, stderr
 *   appended to LOG), then connects to 127.0.0.1:PORT over and over (200 us apart) until a GET PATH
 *   is answered 200. Prints the milliseconds from just before fork to the status line, then SIGTERMs
 *   the server and waits for it. Exit 1 with a message if the server exits first, answers non-200
 *   or takes longer than TIMEOUT_MS.
 *
 * C rather than Python so the probe's own overhead stays in microseconds.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void pause_us(long microseconds) {
    struct timespec t = { 0, microseconds * 1000 };
    nanosleep(&t, NULL);
}

/* Stops the server: SIGTERM, then SIGKILL if it has not gone within 5 s. */
static void stop_server(pid_t child) {
    kill(child, SIGTERM);
    for (int i = 0; i < 5000; i++) {
        if (waitpid(child, NULL, WNOHANG) == child) return;
        pause_us(1000);
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
}

/* One attempt: connect, send the request, read the status. Returns the status, 0 if refused. */
static int try_request(int port, const char *request) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) { perror("startup_probe: socket"); exit(1); }
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return 0;
    }
    size_t length = strlen(request);
    if (write(fd, request, length) != (ssize_t)length) { close(fd); return 0; }
    char reply[64];
    size_t have = 0;
    while (have < 12) {
        ssize_t n = read(fd, reply + have, sizeof reply - 1 - have);
        if (n <= 0) { close(fd); return 0; }
        have += (size_t)n;
    }
    close(fd);
    reply[have] = 0;
    int status = 0;
    if (sscanf(reply, "HTTP/1.%*d %d", &status) != 1) return -1;
    return status;
}

int main(int argc, char **argv) {
    if (argc < 8 || strcmp(argv[6], "--") != 0) {
        fprintf(stderr, "usage: startup_probe PORT PATH CPU TIMEOUT_MS LOG -- COMMAND [ARG...]\n");
        return 2;
    }
    int port = atoi(argv[1]);
    const char *path = argv[2];
    int cpu = atoi(argv[3]);
    double timeout_ms = atof(argv[4]);
    const char *log_path = argv[5];
    char **command = argv + 7;
    char request[512];
    snprintf(request, sizeof request,
             "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n", path, port);
    signal(SIGPIPE, SIG_IGN);

    double start = now_ms();
    pid_t child = fork();
    if (child < 0) { perror("startup_probe: fork"); return 1; }
    if (child == 0) {
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            sched_setaffinity(0, sizeof set, &set);
        }
        int null = open("/dev/null", O_WRONLY);
        int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(null, STDOUT_FILENO);
        dup2(log >= 0 ? log : null, STDERR_FILENO);
        execvp(command[0], command);
        fprintf(stderr, "startup_probe: cannot exec %s\n", command[0]);
        _exit(127);
    }

    for (;;) {
        int status = try_request(port, request);
        if (status == 200) break;
        int exit_status;
        if (waitpid(child, &exit_status, WNOHANG) == child) {
            fprintf(stderr, "startup_probe: %s exited (status %d) before answering (its stderr: %s)\n", command[0],
                    WIFEXITED(exit_status) ? WEXITSTATUS(exit_status) : -1, log_path);
            return 1;
        }
        if (status != 0) {
            fprintf(stderr, "startup_probe: GET %s answered %d, not 200\n", path, status);
            stop_server(child);
            return 1;
        }
        if (now_ms() - start > timeout_ms) {
            fprintf(stderr, "startup_probe: no answer on port %d within %.0f ms\n", port, timeout_ms);
            stop_server(child);
            return 1;
        }
        pause_us(200);
    }
    double elapsed = now_ms() - start;
    printf("%.3f\n", elapsed);
    fflush(stdout);
    stop_server(child);
    return 0;
}
