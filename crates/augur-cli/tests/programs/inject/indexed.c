/* The input is reached only through elements at an index a local holds: main() reads
 * argv[i][0] and argv[i][1] of each argument i, and buf[j] of a local array fread()
 * fills. No variable in scope holds an input byte. */
#include <stdio.h>

int main(int argc, char **argv) {
  unsigned char buf[4];
  int n = 0;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1] == 'v') {
      n += 2;
    } else if (argv[i][0] == '+') {
      n++;
    }
  }
  if (fread(buf, 1, 4, stdin) == 4) {
    for (int j = 0; j < 4; j++) {
      if (buf[j] > 'm') {
        n += 3;
      }
    }
  }
  printf("%d\n", n);
  return 0;
}
