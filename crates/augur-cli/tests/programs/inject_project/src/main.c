/* Reads up to MAX_INPUT bytes of standard input and hands them to the machine. */
#include <stdio.h>
#include "machine.h"

int main(void) {
  char buf[MAX_INPUT];
  size_t n = fread(buf, 1, sizeof buf, stdin);
  return machine_run(buf, n);
}
