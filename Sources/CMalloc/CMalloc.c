// Giving back the pages of files an idle process no longer needs: see include/CMalloc.h.
#include "CMalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/// One mapping as /proc/self/smaps describes it.
struct mapping {
    unsigned long start, end;
    int candidate;
};

int wb_release_file_pages(void) {
    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (!smaps) return -1;
    // Collected first, released after: madvise while reading would change what is read.
    size_t count = 0, capacity = 64;
    struct mapping *mappings = malloc(capacity * sizeof *mappings);
    if (!mappings) {
        fclose(smaps);
        return -1;
    }
    struct mapping current = {0, 0, 0};
    char line[4096];
    while (fgets(line, sizeof line, smaps)) {
        unsigned long start, end;
        char permissions[8];
        int path = 0;
        // A mapping's first line: "start-end perms offset dev inode [path]"; its fields
        // ("Rss:", "Anonymous:", ...) start with a capital letter and a colon after the name.
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, permissions, &path) == 3) {
            current.start = start;
            current.end = end;
            // Read-only, private, and a file (its path starts with '/'; not [vdso] or [heap]).
            current.candidate = permissions[1] == '-' && permissions[3] == 'p' && path > 0 && line[path] == '/';
        } else if (strncmp(line, "Anonymous:", 10) == 0) {
            if (current.candidate && strtol(line + 10, NULL, 10) == 0) {
                if (count == capacity) {
                    struct mapping *grown = realloc(mappings, 2 * capacity * sizeof *mappings);
                    if (!grown) break;
                    mappings = grown;
                    capacity *= 2;
                }
                mappings[count++] = current;
            }
            current.candidate = 0;
        }
    }
    fclose(smaps);
    int released = 0;
    for (size_t index = 0; index < count; index++) {
        if (madvise((void *)mappings[index].start, mappings[index].end - mappings[index].start, MADV_DONTNEED) == 0) released++;
    }
    free(mappings);
    return released;
}
