/* The environment (time, randomness, a variable) decides the crash with the input. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

char banner[8];

void draw(const char *msg, int width) {
  memcpy(banner, msg, width); /* width may be past the banner */
}

void greet(const char *msg) {
  const char *mode = getenv("GREET_MODE");
  srand((unsigned)time(NULL));
  int jitter = rand() % 2;
  int width = (int)strlen(msg) + jitter;
  if (mode && mode[0] == 'w' && msg[0] == 'z')
    draw(msg, width);
}

int main(int argc, char **argv) {
  if (argc > 1)
    greet(argv[1]);
  return 0;
}
