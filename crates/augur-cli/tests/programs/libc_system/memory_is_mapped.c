/* Memory mappings over the models (musl's mmap family, runtime/libc/syscall.c), an
 * alternate signal stack, and mincore, each as the native run gives them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
  char *anon = mmap(NULL, 10000, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (anon == MAP_FAILED)
    return 1;
  strcpy(anon + 9000, "anonymous");
  printf("anon %s zero %d page %d\n", anon + 9000, anon[9999], ((unsigned long)anon & 4095) == 0);
  int protected = mprotect(anon, 4096, PROT_READ);
  printf("mprotect %d munmap %d\n", protected, munmap(anon, 10000));

  int fd = open("mapped.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write(fd, "hello, mapping", 14) != 14)
    return 2;
  char *file = mmap(NULL, 14, PROT_READ, MAP_PRIVATE, fd, 0);
  printf("file %.14s\n", file == MAP_FAILED ? "failed" : file);
  void *shared = mmap(NULL, 14, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  printf("shared writable %s errno %d\n", shared == MAP_FAILED ? "failed" : "mapped", errno);
  close(fd);
  unlink("mapped.txt");

  unsigned char vec[1];
  errno = 0;
  printf("mincore %d errno %d\n", mincore(file, 4096, vec), errno);

  static char stack[1 << 16];
  stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack};
  /* (The stack it had is not shown: the native replay's is AddressSanitizer's.) */
  printf("sigaltstack %d\n", sigaltstack(&ss, NULL));
  return 0;
}
