/* The input is reached only through elements at a local's index plus or minus a
 * constant: main() reads argv[i + 1][0] and argv[i + 1][1], and buf[j - 1] of a local
 * array fread() fills. No variable in scope holds an input byte. */
#include <stdio.h>

int main(int argc, char **argv) {
  unsigned char buf[4];
  int n = 0;
  for (int i = 0; i + 1 < argc; i++) {
    if (argv[i + 1][0] == '-' && argv[i + 1][1] == 'v') {
      n += 2;
    } else if (argv[i + 1][0] == '+') {
      n++;
    }
  }
  if (fread(buf, 1, 4, stdin) == 4) {
    for (int j = 1; j <= 4; j++) {
      if (buf[j - 1] > 'm') {
        n += 3;
      }
    }
  }
  printf("%d\n", n);
  return 0;
}
