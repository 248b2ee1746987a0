/* The input is reached only through argv at an index a global holds, as GNU programs
 * read their operands at getopt's optind: main() reads argv[first][0] and
 * argv[first][1], and hands argv[first] to strcmp(). */
#include <stdio.h>
#include <string.h>

int first = 1;

int main(int argc, char **argv) {
  if (argc <= first)
    return 1;
  if (argv[first][0] == '-' && argv[first][1] == 'v')
    puts("verbose");
  else if (strcmp(argv[first], "+") == 0)
    puts("plus");
  else
    puts("other");
  return 0;
}
