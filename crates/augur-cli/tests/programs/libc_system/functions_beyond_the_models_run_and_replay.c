/* Functions augur's models do not define come from musl: each answer below is
 * glibc's too, so every test replays natively. */
#include <arpa/inet.h>
#include <libgen.h>
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

static int compare(const void *a, const void *b) { return strcmp(a, b); }

int main(int argc, char **argv) {
  char path[] = "/usr/lib/x.so";
  struct in_addr addr;
  void *root = NULL;
  if (argc < 2)
    return 2;
  printf("dirname %s\n", dirname(path));
  printf("strsignal %s\n", strsignal(SIGTERM));
  printf("wcslen %zu\n", wcslen(L"augur"));
  tsearch("b", &root, compare);
  tsearch("a", &root, compare);
  printf("tfind %s\n", tfind("a", &root, compare) ? "found" : "missing");
  /* a symbolic address: valid or not, with its value */
  if (inet_pton(AF_INET, argv[1], &addr) == 1)
    printf("address %08x\n", ntohl(addr.s_addr));
  else
    printf("not an address\n");
  return 0;
}
