// ThreadSanitizer's annotations for a lock it cannot see into (see Locked.swift).
//
// The runtime's own entry points (compiler-rt's tsan_interface.h), declared weak: in a build
// with -sanitize=thread the TSan runtime defines them; in every other build they are absent,
// their address is null, and the wrappers do nothing.
#ifndef SYNCMON_CTHREADSANITIZER_SHIM_H
#define SYNCMON_CTHREADSANITIZER_SHIM_H

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

/// The calling thread now holds the lock identified by `address`: everything written by the
/// thread that last released it happened before what this thread does next.
static inline void syncmon_tsan_acquire(void *address) {
    if (__tsan_acquire) __tsan_acquire(address);
}

/// The calling thread is about to release the lock identified by `address`.
static inline void syncmon_tsan_release(void *address) {
    if (__tsan_release) __tsan_release(address);
}

#endif
