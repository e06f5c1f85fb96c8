#ifndef SPLITD_CLINUXSHIMS_H
#define SPLITD_CLINUXSHIMS_H
// Linux interfaces Glibc's Swift module does not expose (epoll, CPU affinity, statfs).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <sys/epoll.h>
#include <sys/statfs.h>
#include <sys/resource.h>

/// Pins the calling process to one CPU; 0 on success, -1 with errno on failure.
int splitd_pin_to_cpu(int cpu);
#endif
