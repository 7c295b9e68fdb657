/* rankfiles.h - the rank files of a measurement directory
 * (rank-<digits>.rpp, 5 or more digits), found once for every tool. */
#ifndef RP_RANKFILES_H
#define RP_RANKFILES_H

#include <stdint.h>

/* The rank files of DIR sorted by rank: ranks[i] and the malloc'd path
 * "DIR/name" paths[i] (rankfiles_free frees them).  0, or -1 with errno. */
int rankfiles_list(const char *dir, uint32_t **ranks, char ***paths, uint32_t *n);
void rankfiles_free(uint32_t *ranks, char **paths, uint32_t n);

/* Newest mtime (ns) of DIR's rank files, 0 if none; -1 if DIR unreadable.
 * *count: how many there are. */
int64_t rankfiles_newest(const char *dir, uint32_t *count);

#endif
