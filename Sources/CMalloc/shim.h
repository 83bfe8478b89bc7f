// glibc's heap controls (mallopt, malloc_trim, M_ARENA_MAX), which the Glibc module Swift
// imports leaves out.
#include <malloc.h>
