
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
int main(void) {
  if (fopen("", "w") != NULL) return 1;
  if (errno != ENOENT) return 2;
  if (open("", O_WRONLY | O_CREAT, 0644) >= 0 || errno != ENOENT) return 3;
  return 0;
}
