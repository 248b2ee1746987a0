/* crypt() is libcrypt's natively: `augur replay --libs -lcrypt` links it. */
#include <crypt.h>
#include <stdio.h>

int main(void) {
  printf("%s\n", crypt("augur", "ab"));
  return 0;
}
