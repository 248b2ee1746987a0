/* getopt_long_only: "-name" is a long option unless it starts with a short one. */
#include <getopt.h>
#include <stdio.h>

int main(int argc, char **argv) {
  static const struct option longs[] = {
      {"verbose", no_argument, NULL, 'v'}, {"output", required_argument, NULL, 'o'}, {0}};
  int c;
  while ((c = getopt_long_only(argc, argv, "xo:", longs, NULL)) != -1)
    printf("%c %s\n", c, optarg ? optarg : "-");
  printf("rest %d\n", argc - optind);
  return 0;
}
