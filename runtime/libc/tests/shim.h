#ifndef SHIM_H
#define SHIM_H
#include <stddef.h>
extern char shim_out[1 << 16];
extern size_t shim_out_len;
extern int shim_capture;
extern size_t shim_stdin_chunk;
/* The modelled files' names (NULL-terminated) that augur_sys_name lists. */
extern const char *const *shim_names;
void shim_reset_out(void);
void shim_set_stdin(const char *s);
#endif
