/* solver/_table_memory.h: memory for the compiled searches' transposition tables.
 *
 * Included by solver/_search_core.h and solver/_simultaneous_core.h.  A table's probes land
 * anywhere in an array far larger than the caches; with the usual 4 KiB pages most of them
 * also miss the cache of address translations, and a page walk costs about as much again as
 * the line itself.  Tables of 2 MiB or more are therefore asked for in 2 MiB pages where the
 * system gives them (Linux's transparent huge pages, "madvise" or "always"); elsewhere they
 * are plain zeroed memory.  Either way the memory is freed with free().
 */

#ifndef TABLE_MEMORY_H
#define TABLE_MEMORY_H

#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* `bytes` of zeroed memory, NULL when there is not enough. */
static void *table_memory(size_t bytes) {
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (bytes >= huge) {
        void *memory = aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
        if (!memory) return NULL;
        madvise(memory, bytes, MADV_HUGEPAGE);
        return memset(memory, 0, bytes);
    }
#endif
    return calloc(1, bytes);
}

#endif
