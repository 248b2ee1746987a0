/* A crash that needs a local read before it is written to be 0, as it is in the
   analysis: the recording build zeroes each alloca, so the field run crashes where augur
   repro finds it (natively `extra` would hold the 1 that prime, whose frame has the same
   layout, left in the same place). */
#include <string.h>

char name[8];
int sink;

static void prime(const char *s) {
  int extra = 1;
  int n = (int)strlen(s);
  sink = extra + n;
}

static void store(const char *s) {
  int extra; /* never written */
  int n = (int)strlen(s);
  if (s[0] == 'U' && extra == 0)
    memcpy(name, s, n + 1);
}

int main(int argc, char **argv) {
  if (argc > 1) {
    prime(argv[1]);
    store(argv[1]);
  }
  return 0;
}
