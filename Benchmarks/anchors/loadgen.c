/*
 * loadgen: a closed-loop load generator for newline-delimited request/reply servers on a
 * Unix domain socket (the echo anchor and splitd alike), one thread, epoll.
 *
 * It opens CONNS connections and keeps DEPTH requests in flight on each: every reply line
 * completes the oldest request in flight on its connection (replies come in request order)
 * and, while the run is sending, is answered with the next request. A run is a warm-up,
 * a measured period and a drain of at most 2 s for the replies still in flight. The
 * latency of a request runs from the moment it is queued for writing to the moment its
 * reply line is read; only requests sent in the measured period count, and the rate is
 * the replies read in the measured period over its length.
 *
 * Requests are a fixed resize-like line of -q bytes, or the lines of a template file
 * (-f): each connection sends them in order, round and round; in a template `%c` is the
 * connection's index (0 first), `%n` its request counter (1 first) and `%%` a `%`.
 *
 * Output: one line, RESULT key=value ..., then exit status 3 if errors is not 0 (error
 * replies with -e, lines that answered no request, requests never answered, connections
 * that failed), 64 on a usage error, 1 if nothing could be measured.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Latency histogram in microseconds, exact below 2048 µs and within 0.1 % above (the
 * value's top 11 bits are kept): bucket = 2048 + (exponent - 1) * 1024 + mantissa - 1024. */
#define EXACT 2048
#define BUCKETS (EXACT + 54 * 1024)
static uint64_t histogram[BUCKETS];
static uint64_t recorded, latency_sum, latency_max;

static int bucket_of(uint64_t value) {
    if (value < EXACT) return (int)value;
    int exponent = 63 - __builtin_clzll(value) - 10; /* value >> exponent is in [1024, 2048) */
    return EXACT + (exponent - 1) * 1024 + (int)((value >> exponent) - 1024);
}

static uint64_t value_of(int bucket) {
    if (bucket < EXACT) return (uint64_t)bucket;
    int exponent = (bucket - EXACT) / 1024 + 1;
    uint64_t mantissa = (uint64_t)((bucket - EXACT) % 1024 + 1024);
    return mantissa << exponent;
}

static void record(uint64_t microseconds) {
    histogram[bucket_of(microseconds)]++;
    recorded++;
    latency_sum += microseconds;
    if (microseconds > latency_max) latency_max = microseconds;
}

static double percentile(double fraction) {
    if (recorded == 0) return NAN;
    uint64_t rank = (uint64_t)ceil(fraction * (double)recorded);
    if (rank == 0) rank = 1;
    uint64_t seen = 0;
    for (int bucket = 0; bucket < BUCKETS; bucket++) {
        seen += histogram[bucket];
        if (seen >= rank) return (double)value_of(bucket);
    }
    return (double)latency_max;
}

struct connection {
    int fd;
    int open;
    char *out;                 /* queued request bytes, written from out_offset */
    size_t out_length, out_offset, out_capacity;
    char *partial;             /* a reply line cut off by a read */
    size_t partial_length, partial_capacity;
    uint64_t *sent_at;         /* ring of DEPTH send times (ns) of the requests in flight */
    int head, in_flight;
    unsigned long long counter;
    size_t next_template;
    int watching_writes;
};

static struct connection *connections;
static int connection_count = 1, depth = 1, count_error_replies;
static double warmup_seconds = 1, measure_seconds = 5;
static unsigned long long max_requests;
static size_t fixed_request_bytes = 160;
static char **templates;
static size_t template_count;
static int epoll_fd;

static uint64_t measure_start, measure_end;
static int sending = 1;
static unsigned long long sent, answered, error_replies, unexpected_lines, connection_failures;
static long total_in_flight;
static size_t request_bytes;
static char first_error[300];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *grow(void *pointer, size_t *capacity, size_t needed) {
    if (needed <= *capacity) return pointer;
    size_t size = *capacity ? *capacity : 1024;
    while (size < needed) size *= 2;
    void *grown = realloc(pointer, size);
    if (grown == NULL) {
        fprintf(stderr, "loadgen: out of memory\n");
        exit(1);
    }
    *capacity = size;
    return grown;
}

static void queue(struct connection *c, const char *bytes, size_t length) {
    c->out = grow(c->out, &c->out_capacity, c->out_length + length);
    memcpy(c->out + c->out_length, bytes, length);
    c->out_length += length;
}

/* Queues the connection's next request and notes when it was sent. */
static void send_request(struct connection *c, int index) {
    size_t before = c->out_length;
    c->counter++;
    if (template_count == 0) {
        char head[96];
        int n = snprintf(head, sizeof head, "{\"id\":%llu,\"op\":\"resize\",\"scene\":\"bench-%d\",\"pad\":\"",
                         c->counter, index);
        queue(c, head, (size_t)n);
        size_t used = (size_t)n + 3;
        while (used < fixed_request_bytes) {
            queue(c, "x", 1);
            used++;
        }
        queue(c, "\"}\n", 3);
    } else {
        const char *t = templates[c->next_template];
        c->next_template = (c->next_template + 1) % template_count;
        char number[32];
        for (; *t; t++) {
            if (*t != '%') {
                queue(c, t, 1);
                continue;
            }
            t++;
            if (*t == 'c') queue(c, number, (size_t)snprintf(number, sizeof number, "%d", index));
            else if (*t == 'n') queue(c, number, (size_t)snprintf(number, sizeof number, "%llu", c->counter));
            else if (*t == '%') queue(c, "%", 1);
            else if (*t == '\0') break;
            else { queue(c, "%", 1); queue(c, t, 1); }
        }
        queue(c, "\n", 1);
    }
    if (request_bytes == 0) request_bytes = c->out_length - before;
    c->sent_at[(c->head + c->in_flight) % depth] = now_ns();
    c->in_flight++;
    total_in_flight++;
    sent++;
    if (max_requests && sent >= max_requests) sending = 0;
}

static void close_connection(struct connection *c, int failed) {
    if (!c->open) return;
    if (failed) connection_failures++;
    total_in_flight -= c->in_flight;
    c->in_flight = 0;
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->open = 0;
}

static void watch_writes(struct connection *c, int index, int on) {
    if (c->watching_writes == on) return;
    struct epoll_event event = {.events = EPOLLIN | (on ? EPOLLOUT : 0), .data.u32 = (uint32_t)index};
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event);
    c->watching_writes = on;
}

static void flush(struct connection *c, int index) {
    while (c->out_offset < c->out_length) {
        ssize_t n = write(c->fd, c->out + c->out_offset, c->out_length - c->out_offset);
        if (n > 0) {
            c->out_offset += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            watch_writes(c, index, 1);
            return;
        } else {
            close_connection(c, 1);
            return;
        }
    }
    c->out_length = c->out_offset = 0;
    watch_writes(c, index, 0);
}

/* One reply line: completes the oldest request in flight, then sends the next one. */
static void reply(struct connection *c, int index, const char *line, size_t length) {
    if (c->in_flight == 0) {
        unexpected_lines++;
        return;
    }
    uint64_t sent_time = c->sent_at[c->head];
    c->head = (c->head + 1) % depth;
    c->in_flight--;
    total_in_flight--;
    uint64_t now = now_ns();
    if (sent_time >= measure_start && sent_time < measure_end) record((now - sent_time) / 1000);
    if (now >= measure_start && now < measure_end) answered++;
    if (count_error_replies && memmem(line, length, "\"ok\":false", 10) != NULL) {
        if (error_replies++ == 0) {
            size_t shown = length < sizeof first_error - 1 ? length : sizeof first_error - 1;
            memcpy(first_error, line, shown);
            first_error[shown] = '\0';
        }
    }
    if (sending) send_request(c, index);
}

static void readable(struct connection *c, int index) {
    static char buffer[65536];
    for (;;) {
        ssize_t n = read(c->fd, buffer, sizeof buffer);
        if (n == 0) {
            close_connection(c, 1);
            return;
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN) close_connection(c, 1);
            break;
        }
        const char *start = buffer, *end = buffer + n, *newline;
        while ((newline = memchr(start, '\n', (size_t)(end - start))) != NULL) {
            size_t length = (size_t)(newline - start);
            if (c->partial_length) {
                c->partial = grow(c->partial, &c->partial_capacity, c->partial_length + length);
                memcpy(c->partial + c->partial_length, start, length);
                reply(c, index, c->partial, c->partial_length + length);
                c->partial_length = 0;
            } else {
                reply(c, index, start, length);
            }
            start = newline + 1;
        }
        if (start < end) {
            size_t rest = (size_t)(end - start);
            c->partial = grow(c->partial, &c->partial_capacity, c->partial_length + rest);
            memcpy(c->partial + c->partial_length, start, rest);
            c->partial_length += rest;
        }
        if ((size_t)n < sizeof buffer) break;
    }
    if (c->open) flush(c, index);
}

static int open_connection(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) {
        close(fd);
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address.sun_path, path);
    /* A Unix socket connects at once or fails (EAGAIN: the backlog is full; retry). */
    for (int attempt = 0; attempt < 200; attempt++) {
        if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) return fd;
        if (errno != EAGAIN && errno != EINTR) break;
        usleep(5000);
    }
    close(fd);
    return -1;
}

/* CPU seconds (user + system) of this process, or of `pid` read from /proc. */
static double own_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
           usage.ru_stime.tv_usec / 1e6;
}

static double process_cpu_seconds(int pid) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return NAN;
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    /* The command name may hold spaces and parentheses: fields are counted after its last ')'. */
    char *field = strrchr(text, ')');
    if (field == NULL) return NAN;
    unsigned long long utime = 0, stime = 0;
    if (sscanf(field + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2) return NAN;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static void read_templates(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "loadgen: cannot read %s: %s\n", path, strerror(errno));
        exit(64);
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, file)) >= 0) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
        if (length == 0) continue;
        templates = realloc(templates, (template_count + 1) * sizeof *templates);
        templates[template_count++] = strdup(line);
    }
    free(line);
    fclose(file);
    if (template_count == 0) {
        fprintf(stderr, "loadgen: %s holds no request\n", path);
        exit(64);
    }
}

static void usage(int status) {
    fprintf(stderr,
            "usage: loadgen -s SOCKET [-c CONNS] [-d DEPTH] [-w WARMUP_S] [-t SECONDS] [-n MAX_REQUESTS]\n"
            "               [-p SERVER_PID] [-f TEMPLATE_FILE | -q REQUEST_BYTES] [-e]\n");
    exit(status);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    int server_pid = 0, option;
    while ((option = getopt(argc, argv, "s:c:d:w:t:n:p:f:q:eh")) != -1) {
        switch (option) {
        case 's': path = optarg; break;
        case 'c': connection_count = atoi(optarg); break;
        case 'd': depth = atoi(optarg); break;
        case 'w': warmup_seconds = atof(optarg); break;
        case 't': measure_seconds = atof(optarg); break;
        case 'n': max_requests = strtoull(optarg, NULL, 10); break;
        case 'p': server_pid = atoi(optarg); break;
        case 'f': read_templates(optarg); break;
        case 'q': fixed_request_bytes = (size_t)strtoul(optarg, NULL, 10); break;
        case 'e': count_error_replies = 1; break;
        case 'h': usage(0); break;
        default: usage(64);
        }
    }
    if (path == NULL || connection_count < 1 || depth < 1 || measure_seconds <= 0 || measure_seconds > 300 ||
        warmup_seconds < 0)
        usage(64);
    signal(SIGPIPE, SIG_IGN);
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    connections = calloc((size_t)connection_count, sizeof *connections);

    uint64_t start = now_ns();
    measure_start = start + (uint64_t)(warmup_seconds * 1e9);
    measure_end = measure_start + (uint64_t)(measure_seconds * 1e9);
    for (int i = 0; i < connection_count; i++) {
        struct connection *c = &connections[i];
        c->sent_at = calloc((size_t)depth, sizeof *c->sent_at);
        c->fd = open_connection(path);
        if (c->fd < 0) {
            connection_failures++;
            continue;
        }
        c->open = 1;
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &event);
        for (int k = 0; k < depth && sending; k++) send_request(c, i);
        flush(c, i);
    }

    enum { WARMUP, MEASURE, DRAIN } phase = WARMUP;
    double client_cpu_start = 0, server_cpu_start = 0, client_cpu = NAN, server_cpu = NAN;
    uint64_t drain_end = 0, sending_stopped = 0;
    struct epoll_event events[256];
    for (;;) {
        uint64_t now = now_ns();
        if (phase == WARMUP && now >= measure_start) {
            phase = MEASURE;
            client_cpu_start = own_cpu_seconds();
            if (server_pid) server_cpu_start = process_cpu_seconds(server_pid);
        }
        /* The measured period ends on time, or when -n ended the sending. */
        if (phase == MEASURE && !sending && sending_stopped == 0) sending_stopped = now;
        if (phase == MEASURE && (now >= measure_end || (sending_stopped && total_in_flight == 0))) {
            if (now < measure_end) measure_end = now;
            phase = DRAIN;
            sending = 0;
            double wall = (double)(measure_end - measure_start) / 1e9;
            client_cpu = (own_cpu_seconds() - client_cpu_start) / wall * 100;
            if (server_pid) server_cpu = (process_cpu_seconds(server_pid) - server_cpu_start) / wall * 100;
            drain_end = now + 2000000000ull;
        }
        if (phase == DRAIN && (total_in_flight <= 0 || now >= drain_end)) break;
        if (phase == WARMUP && total_in_flight <= 0 && !sending) break;
        int n = epoll_wait(epoll_fd, events, 256, 5);
        for (int k = 0; k < n; k++) {
            int index = (int)events[k].data.u32;
            struct connection *c = &connections[index];
            if (!c->open) continue;
            if (events[k].events & EPOLLIN) readable(c, index);
            if (c->open && (events[k].events & EPOLLOUT)) flush(c, index);
            if (c->open && (events[k].events & (EPOLLERR | EPOLLHUP)) && !(events[k].events & EPOLLIN))
                close_connection(c, 1);
        }
    }

    if (phase != DRAIN) {
        fprintf(stderr, "loadgen: the run ended before its measured period\n");
        return 1;
    }
    double seconds = (double)(measure_end - measure_start) / 1e9;
    unsigned long long unanswered = total_in_flight > 0 ? (unsigned long long)total_in_flight : 0;
    unsigned long long errors = error_replies + unexpected_lines + unanswered + connection_failures;
    if (first_error[0]) fprintf(stderr, "loadgen: first error reply: %s\n", first_error);
    printf("RESULT conns=%d depth=%d secs=%.3f requests=%llu rps=%.1f p50_us=%.0f p99_us=%.0f p999_us=%.0f "
           "max_us=%llu mean_us=%.1f client_cpu_pct=%.1f server_cpu_pct=%.1f errors=%llu error_replies=%llu "
           "unexpected_lines=%llu unanswered=%llu connection_failures=%llu req_bytes=%zu\n",
           connection_count, depth, seconds, answered, (double)answered / seconds, percentile(0.50),
           percentile(0.99), percentile(0.999), (unsigned long long)latency_max,
           recorded ? (double)latency_sum / (double)recorded : NAN, client_cpu, server_pid ? server_cpu : NAN, errors,
           error_replies, unexpected_lines, unanswered, connection_failures, request_bytes);
    fflush(stdout);
    return errors ? 3 : 0;
}
