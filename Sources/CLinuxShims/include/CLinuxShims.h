#ifndef SPLITD_CLINUXSHIMS_H
#define SPLITD_CLINUXSHIMS_H
// Linux interfaces Glibc's Swift module does not expose (epoll, CPU affinity, gettid), wrapped with
// plain types only: including <sys/epoll.h> or <sys/resource.h> here would clash with the
// Glibc module's own copies of those declarations.
#include <stdint.h>

/// One ready descriptor, as epoll_wait reports it.
typedef struct splitd_epoll_ready {
    uint32_t events;
    uint64_t data;
} splitd_epoll_ready;

enum {
    SPLITD_EPOLLIN = 0x001,
    SPLITD_EPOLLOUT = 0x004,
    SPLITD_EPOLLERR = 0x008,
    SPLITD_EPOLLHUP = 0x010,
    SPLITD_EPOLL_CTL_ADD = 1,
    SPLITD_EPOLL_CTL_DEL = 2,
    SPLITD_EPOLL_CTL_MOD = 3,
};

/// epoll_create1(EPOLL_CLOEXEC).
int splitd_epoll_create(void);
/// epoll_ctl with the event's data set to `data`.
int splitd_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
/// epoll_wait into `ready` (at most `capacity`, itself at most 1024).
int splitd_epoll_wait(int epfd, splitd_epoll_ready *ready, int capacity, int timeout_ms);
/// Pins the calling thread (and the threads and processes it starts later) to one CPU; 0 on
/// success, -1 with errno on failure.
int splitd_pin_to_cpu(int cpu);
/// The calling thread's CPU mask (1024 CPUs, 16 words), and setting it back.
int splitd_get_affinity(uint64_t mask[16]);
int splitd_set_affinity(const uint64_t mask[16]);
/// The calling thread's kernel id (gettid), which setpriority takes for one thread.
int32_t splitd_thread_id(void);
/// Returns the allocator's free memory to the system (glibc's malloc_trim(0)); 1 if some was.
int splitd_release_free_memory(void);
/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK): a client close-on-exec and
/// non-blocking in one call (accept4 needs _GNU_SOURCE, which Swift's Glibc module lacks).
int splitd_accept_client(int fd);
/// Until the daemon's signal watchers exist: SIGHUP ignored, SIGTERM/SIGINT noted (not fatal).
void splitd_defer_startup_signals(void);
/// The first SIGTERM/SIGINT noted since `splitd_defer_startup_signals`, or 0.
int splitd_startup_stop_signal(void);
#endif
