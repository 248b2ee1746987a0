void augur_make_symbolic(void *addr, unsigned long size, const char *name);
