/* exit.c - exit() runs the atexit handlers, then ends the path through the engine's _exit. */
#include "augur_sys.h"

void augur_run_atexit(void);
void _exit(int code) __attribute__((noreturn));

void exit(int code) {
  augur_run_atexit();
  _exit(code);
}
