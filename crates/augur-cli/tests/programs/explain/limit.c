#include <stdio.h>
int limit = 10;
int main(void) {
  printf("limit %d\n", limit); /* READ */
  return 0;
}
