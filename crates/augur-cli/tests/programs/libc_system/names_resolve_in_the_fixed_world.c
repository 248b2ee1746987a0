/* What getaddrinfo, getnameinfo and gethostbyname answer in augur's world (no network, no
 * DNS, no hosts or services file: runtime/fixed_names.h): numeric addresses, localhost and
 * numeric ports resolve, another name or a service name does not; argv[1] is a service. */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* One line per entry of getaddrinfo(node, service) under the hints given, or its error. */
static void show(const char *node, const char *service, int family, int socktype) {
  struct addrinfo hints, *list, *p;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = family;
  hints.ai_socktype = socktype;
  int r = getaddrinfo(node, service, &hints, &list);
  printf("%s %s family %d socktype %d:", node ? node : "-", service ? service : "-", family,
         socktype);
  if (r != 0) {
    printf(" %d %s\n", r, gai_strerror(r));
    return;
  }
  for (p = list; p; p = p->ai_next) {
    char text[INET6_ADDRSTRLEN];
    const void *addr = p->ai_family == AF_INET
                           ? (const void *)&((struct sockaddr_in *)p->ai_addr)->sin_addr
                           : (const void *)&((struct sockaddr_in6 *)p->ai_addr)->sin6_addr;
    int port = ntohs(p->ai_family == AF_INET ? ((struct sockaddr_in *)p->ai_addr)->sin_port
                                             : ((struct sockaddr_in6 *)p->ai_addr)->sin6_port);
    inet_ntop(p->ai_family, addr, text, sizeof text);
    printf(" [%d %d %d %s %d]", p->ai_family, p->ai_socktype, p->ai_protocol, text, port);
  }
  printf("\n");
  freeaddrinfo(list);
}

/* getnameinfo of 127.0.0.1 (or 10.1.2.3) port 80 under flags. */
static void name_of(const char *address, int flags) {
  struct sockaddr_in sin;
  char host[64] = "", serv[16] = "";
  memset(&sin, 0, sizeof sin);
  sin.sin_family = AF_INET;
  sin.sin_port = htons(80);
  inet_pton(AF_INET, address, &sin.sin_addr);
  int r = getnameinfo((struct sockaddr *)&sin, sizeof sin, host, sizeof host, serv, sizeof serv,
                      flags);
  printf("getnameinfo %s %d: %d %s %s\n", address, flags, r, host, serv);
}

/* gethostbyname(name): its name and first address, or h_errno. */
static void host_named(const char *name) {
  struct hostent *h = gethostbyname(name);
  char text[INET_ADDRSTRLEN];
  if (!h) {
    printf("gethostbyname %s: h_errno %d\n", name, h_errno);
    return;
  }
  inet_ntop(h->h_addrtype, h->h_addr_list[0], text, sizeof text);
  printf("gethostbyname %s: %s %d %s %s\n", name, h->h_name, h->h_length, text,
         h->h_addr_list[1] ? "more" : "one");
}

int main(int argc, char **argv) {
  show("127.0.0.1", NULL, AF_UNSPEC, 0);
  show("::1", "80", AF_UNSPEC, SOCK_STREAM);
  show("localhost", "80", AF_UNSPEC, SOCK_STREAM);
  show("localhost", NULL, AF_INET, 0);
  show("nosuch.example", "80", AF_UNSPEC, SOCK_STREAM);
  show("127.0.0.1", "http", AF_UNSPEC, SOCK_STREAM);
  name_of("127.0.0.1", 0);
  name_of("127.0.0.1", NI_NUMERICHOST);
  name_of("10.1.2.3", 0);
  name_of("10.1.2.3", NI_NAMEREQD);
  host_named("localhost");
  host_named("nosuch.example");
  if (argc > 1)
    show("127.0.0.1", argv[1], AF_INET, SOCK_STREAM);
  return 0;
}
