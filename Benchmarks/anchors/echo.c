/*
 * echo: the ceiling splitd is compared with. A single-threaded libuv server on a Unix
 * domain socket that answers every newline-terminated line with one line of about
 * REPLY_BYTES bytes: {"rev":N,"echo":<the request line>,"pad":"..."}.
 *
 * It parses nothing and stores nothing, so a libuv daemon speaking newline-delimited
 * messages can approach it but not beat it. Like splitd, it answers everything one read
 * brought in with a single write (the replies of a read are coalesced).
 *
 * Usage: echo -s SOCKET [-r REPLY_BYTES] [-t LIFETIME_SECONDS]
 * SIGINT or SIGTERM, or the end of the lifetime, stops it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

static size_t reply_bytes = 400;
static unsigned long long revision;
static uv_pipe_t listener;
static uv_signal_t sigint_handle, sigterm_handle;
static uv_timer_t lifetime;

/* One connection: the start of a line that a read cut off waits in `pending`. */
struct connection {
    uv_pipe_t pipe;
    char *pending;
    size_t pending_length, pending_capacity;
};

/* One coalesced write; freed when libuv is done with it. */
struct reply {
    uv_write_t request;
    char *bytes;
    size_t length, capacity;
};

static void *checked_realloc(void *pointer, size_t size) {
    void *grown = realloc(pointer, size);
    if (grown == NULL) {
        fprintf(stderr, "echo: out of memory\n");
        exit(1);
    }
    return grown;
}

static void reserve(struct reply *reply, size_t more) {
    if (reply->length + more <= reply->capacity) return;
    size_t capacity = reply->capacity ? reply->capacity : 4096;
    while (capacity < reply->length + more) capacity *= 2;
    reply->bytes = checked_realloc(reply->bytes, capacity);
    reply->capacity = capacity;
}

static void append(struct reply *reply, const char *bytes, size_t length) {
    reserve(reply, length);
    memcpy(reply->bytes + reply->length, bytes, length);
    reply->length += length;
}

/* Appends the reply to one request line (without its newline). The request is echoed as
 * it came: the clients send JSON objects, so the reply stays JSON. */
static void answer_line(struct reply *reply, const char *line, size_t length) {
    char head[64];
    int head_length = snprintf(head, sizeof head, "{\"rev\":%llu,\"echo\":", ++revision);
    append(reply, head, (size_t)head_length);
    if (length == 0) append(reply, "null", 4); else append(reply, line, length);
    append(reply, ",\"pad\":\"", 8);
    size_t so_far = (size_t)head_length + (length ? length : 4) + 8 + 3;
    size_t padding = so_far < reply_bytes ? reply_bytes - so_far : 0;
    reserve(reply, padding);
    memset(reply->bytes + reply->length, 'x', padding);
    reply->length += padding;
    append(reply, "\"}\n", 3);
}

static void closed(uv_handle_t *handle) {
    struct connection *connection = (struct connection *)handle;
    free(connection->pending);
    free(connection);
}

static void written(uv_write_t *request, int status) {
    struct reply *reply = (struct reply *)request;
    (void)status; /* A failed write shows up as a failed read and closes the connection. */
    free(reply->bytes);
    free(reply);
}

static void allocate(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle;
    (void)suggested;
    static char storage[65536]; /* One loop thread: a read is consumed before the next. */
    *buffer = uv_buf_init(storage, sizeof storage);
}

static void received(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    struct connection *connection = (struct connection *)stream;
    if (count < 0) {
        uv_close((uv_handle_t *)stream, closed);
        return;
    }
    if (count == 0) return;
    struct reply *reply = calloc(1, sizeof *reply);
    if (reply == NULL) exit(1);
    const char *start = buffer->base, *end = buffer->base + count;
    const char *newline;
    while ((newline = memchr(start, '\n', (size_t)(end - start))) != NULL) {
        size_t length = (size_t)(newline - start);
        if (connection->pending_length > 0) {
            /* The line began in an earlier read: join it before answering. */
            size_t total = connection->pending_length + length;
            if (total > connection->pending_capacity) {
                connection->pending = checked_realloc(connection->pending, total);
                connection->pending_capacity = total;
            }
            memcpy(connection->pending + connection->pending_length, start, length);
            answer_line(reply, connection->pending, total);
            connection->pending_length = 0;
        } else {
            answer_line(reply, start, length);
        }
        start = newline + 1;
    }
    if (start < end) {
        size_t rest = (size_t)(end - start);
        size_t total = connection->pending_length + rest;
        if (total > connection->pending_capacity) {
            connection->pending = checked_realloc(connection->pending, total);
            connection->pending_capacity = total;
        }
        memcpy(connection->pending + connection->pending_length, start, rest);
        connection->pending_length = total;
    }
    if (reply->length == 0) {
        free(reply);
        return;
    }
    uv_buf_t out = uv_buf_init(reply->bytes, (unsigned)reply->length);
    if (uv_write(&reply->request, stream, &out, 1, written) != 0) {
        free(reply->bytes);
        free(reply);
        uv_close((uv_handle_t *)stream, closed);
    }
}

static void accepted(uv_stream_t *server, int status) {
    if (status < 0) return;
    struct connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) exit(1);
    uv_pipe_init(server->loop, &connection->pipe, 0);
    if (uv_accept(server, (uv_stream_t *)&connection->pipe) != 0) {
        uv_close((uv_handle_t *)&connection->pipe, closed);
        return;
    }
    uv_read_start((uv_stream_t *)&connection->pipe, allocate, received);
}

static void stop(void) { uv_stop(uv_default_loop()); }
static void on_signal(uv_signal_t *handle, int signal_number) { (void)handle; (void)signal_number; stop(); }
static void on_lifetime(uv_timer_t *handle) { (void)handle; stop(); }

static void usage(void) {
    fprintf(stderr, "usage: echo -s SOCKET [-r REPLY_BYTES] [-t LIFETIME_SECONDS]\n");
    exit(64);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    double lifetime_seconds = 600;
    int option;
    while ((option = getopt(argc, argv, "s:r:t:h")) != -1) {
        switch (option) {
        case 's': path = optarg; break;
        case 'r': reply_bytes = (size_t)strtoul(optarg, NULL, 10); break;
        case 't': lifetime_seconds = atof(optarg); break;
        default: usage();
        }
    }
    if (path == NULL) usage();
    signal(SIGPIPE, SIG_IGN);
    uv_loop_t *loop = uv_default_loop();
    unlink(path);
    uv_pipe_init(loop, &listener, 0);
    int error = uv_pipe_bind(&listener, path);
    if (error == 0) error = uv_listen((uv_stream_t *)&listener, 1024, accepted);
    if (error != 0) {
        fprintf(stderr, "echo: cannot listen on %s: %s\n", path, uv_strerror(error));
        return 1;
    }
    uv_signal_init(loop, &sigint_handle);
    uv_signal_start(&sigint_handle, on_signal, SIGINT);
    uv_signal_init(loop, &sigterm_handle);
    uv_signal_start(&sigterm_handle, on_signal, SIGTERM);
    uv_timer_init(loop, &lifetime);
    uv_timer_start(&lifetime, on_lifetime, (uint64_t)(lifetime_seconds * 1000), 0);
    uv_run(loop, UV_RUN_DEFAULT);
    unlink(path);
    return 0;
}
