/* The state machine of src/machine.c. */
#ifndef MACHINE_H
#define MACHINE_H
#include <stddef.h>

/* Runs the machine over `n` input bytes, prints its trace; returns the exit status. */
int machine_run(const char *input, size_t n);

#endif
