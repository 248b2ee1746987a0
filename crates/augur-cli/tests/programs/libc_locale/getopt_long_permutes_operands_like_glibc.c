
#include <getopt.h>
#include <stdio.h>
int main(int argc, char **argv) {
  static struct option const longopts[] = {{"lines", no_argument, NULL, 'l'}, {NULL, 0, NULL, 0}};
  int c, lines = 0;
  while ((c = getopt_long(argc, argv, "l", longopts, NULL)) != -1)
    if (c == 'l') lines++; else return 1;
  printf("lines=%d operands:", lines);
  for (int i = optind; i < argc; i++) printf(" %s", argv[i]);
  putchar('\n');
  return 0;
}
