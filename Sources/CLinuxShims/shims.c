#define _GNU_SOURCE
#include "CLinuxShims.h"
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

int splitd_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int splitd_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event = {.events = events, .data.u64 = data};
    return epoll_ctl(epfd, op, fd, &event);
}

int splitd_epoll_wait(int epfd, splitd_epoll_ready *ready, int capacity, int timeout_ms) {
    struct epoll_event events[1024];
    if (capacity > 1024) capacity = 1024;
    int n = epoll_wait(epfd, events, capacity, timeout_ms);
    for (int i = 0; i < n; i++) {
        ready[i].events = events[i].events;
        ready[i].data = events[i].data.u64;
    }
    return n;
}

int splitd_pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

_Static_assert(sizeof(cpu_set_t) == 16 * sizeof(uint64_t), "cpu_set_t is 1024 bits");

int splitd_get_affinity(uint64_t mask[16]) {
    return sched_getaffinity(0, sizeof(cpu_set_t), (cpu_set_t *)mask);
}

int splitd_set_affinity(const uint64_t mask[16]) {
    return sched_setaffinity(0, sizeof(cpu_set_t), (const cpu_set_t *)mask);
}

int32_t splitd_thread_id(void) { return (int32_t)gettid(); }

int splitd_release_free_memory(void) { return malloc_trim(0); }

int splitd_accept_client(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); }

/* A reload or stop signal during start-up (config, store open, replay: up to seconds) must
 * not kill the daemon with the default action before its libuv watchers exist. SIGHUP is
 * ignored meanwhile (the start reads the configuration anyway); SIGTERM/SIGINT are noted and
 * become a graceful stop once the daemon is ready. The watchers' sigaction replaces these. */
static volatile sig_atomic_t startup_stop_signal = 0;

static void note_startup_stop(int number) {
    if (startup_stop_signal == 0) startup_stop_signal = number;
}

void splitd_defer_startup_signals(void) {
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGHUP, &ignore, NULL);
    struct sigaction note;
    memset(&note, 0, sizeof note);
    note.sa_handler = note_startup_stop;
    sigemptyset(&note.sa_mask);
    note.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &note, NULL);
    sigaction(SIGINT, &note, NULL);
}

int splitd_startup_stop_signal(void) { return startup_stop_signal; }
