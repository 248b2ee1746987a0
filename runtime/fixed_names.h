/* fixed_names.h: the name service of augur's fixed world, shared by the libc models
 * (libc/names.c) and the native replay runtime, so that a program resolving a host or a
 * service (getaddrinfo, getnameinfo, the gethostbyname family) gets the same answer under
 * analysis and in replay, where glibc's own resolver would ask the replaying host's files
 * and network. The world has no network, no DNS, no /etc/hosts and no /etc/services:
 *  - Hosts: numeric literals (IPv4 in every form inet_aton reads, "127.1" and "0x7f000001"
 *    too, as glibc's getaddrinfo reads them; IPv6 as inet_pton reads it, without a scope
 *    id), and the lines of a Debian /etc/hosts: "localhost" (any case) is ::1 and
 *    127.0.0.1, in that order under AF_UNSPEC (as glibc sorts them, RFC 3484); the
 *    machine's own name (AUGUR_HOST_NAME, fixed_machine.h) is 127.0.1.1 unless it is
 *    "localhost" itself. Any other name is unknown: EAI_NONAME (glibc's answer for a name
 *    no source knows), HOST_NOT_FOUND from the gethostbyname family. A known name with no
 *    address of the family asked is EAI_NONAME too; a literal of the other family is
 *    EAI_ADDRFAMILY (unless AI_V4MAPPED maps an IPv4 one).
 *  - Services: numeric ports only, read as glibc reads them (strtoul: leading spaces and a
 *    sign allowed; "" is no service). A service name is EAI_SERVICE (EAI_NONAME under
 *    AI_NUMERICSERV); getnameinfo gives every port in digits; getservbyname and
 *    getservbyport find nothing.
 *  - getaddrinfo gives one entry per address and socket type, glibc's: with socktype and
 *    protocol 0, SOCK_STREAM/TCP, SOCK_DGRAM/UDP and SOCK_RAW/0 for each address in turn;
 *    a NULL host is the loopback addresses (::1, then 127.0.0.1) or under AI_PASSIVE the
 *    wildcard ones (0.0.0.0, then ::). AI_ADDRCONFIG changes nothing: glibc ignores it when
 *    it cannot list the interfaces, and the world has no socket to list them with.
 *  - getnameinfo: 127.0.0.1 and ::1 are "localhost" (the host name's address is the host
 *    name), any other address is numeric (EAI_NONAME under NI_NAMEREQD).
 * Error numbers and messages are glibc's.
 *
 * The includer declares first what <netdb.h>, <netinet/in.h>, <sys/socket.h> and <errno.h>
 * declare in glibc (struct addrinfo, hostent, sockaddr_in, sockaddr_in6, servent; AF_*, SOCK_*,
 * IPPROTO_*, AI_*, NI_*, EAI_*, HOST_NOT_FOUND, NETDB_INTERNAL, h_errno, errno, ERANGE,
 * EAFNOSUPPORT), and malloc, free, memcpy, memset, memcmp and strlen. */
#ifndef AUGUR_FIXED_NAMES_H
#define AUGUR_FIXED_NAMES_H

#include "fixed_machine.h"

/* An address of the world: its family (AF_INET or AF_INET6) and its bytes in network
 * order (an IPv4 address in the first four). */
struct augur_addr {
  int family;
  unsigned char b[16];
};

/* The world's hosts file, a name and one of its addresses a line, a name's lines in the
 * order getaddrinfo gives them. */
static const struct augur_host {
  const char *name;
  struct augur_addr addr;
} augur_hosts[] = {
    {"localhost", {AF_INET6, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}},
    {"localhost", {AF_INET, {127, 0, 0, 1}}},
    {AUGUR_HOST_NAME, {AF_INET, {127, 0, 1, 1}}},
};
#define AUGUR_HOST_LINES 3
#define AUGUR_MAX_ADDRS 4 /* the most addresses one name has, mapped ones included */

/* The socket types and protocols getaddrinfo knows, in glibc's order: `any` for raw
 * sockets, which take any protocol and no service; `dflt` for those given when the hints
 * name neither a type nor a protocol. */
static const struct augur_typeproto {
  int socktype, protocol;
  char any, dflt;
} augur_typeprotos[] = {
    {SOCK_STREAM, IPPROTO_TCP, 0, 1},    {SOCK_DGRAM, IPPROTO_UDP, 0, 1},
    {SOCK_DCCP, IPPROTO_DCCP, 0, 0},     {SOCK_DGRAM, IPPROTO_UDPLITE, 0, 0},
    {SOCK_STREAM, IPPROTO_SCTP, 0, 0},   {SOCK_SEQPACKET, IPPROTO_SCTP, 0, 0},
    {SOCK_RAW, 0, 1, 1},
};
#define AUGUR_TYPEPROTOS 7
#define AUGUR_DEFAULT_TYPES 3

/* ---- Names and literals ---------------------------------------------------------- */

/* c in ASCII lower case. */
static inline int augur_lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Whether host names a and b are the same, ignoring ASCII case (as glibc's files lookup). */
static inline int augur_same_name(const char *a, const char *b) {
  for (; augur_lower((unsigned char)*a) == augur_lower((unsigned char)*b); a++, b++)
    if (!*a)
      return 1;
  return 0;
}

/* Whether line i of the hosts file is in this world's: the machine's own line is not when
 * its name is "localhost" (localhost's lines stand). */
static inline int augur_host_line(int i) {
  return i < AUGUR_HOST_LINES - 1 || !augur_same_name(AUGUR_HOST_NAME, "localhost");
}

/* The value of digit c in base (2..16), or 99 when c is not one. */
static inline unsigned augur_digit(int c, unsigned base) {
  unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
               : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
               : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                      : 99;
  return d < base ? d : 99;
}

/* One number of an inet_aton address (decimal, octal after a 0, hex after 0x), at most
 * 32 bits, into *v: the end of its digits, or NULL. */
static inline const char *augur_aton_part(const char *s, unsigned long *v) {
  unsigned base = 10, d;
  if (augur_digit(*s, 10) == 99)
    return NULL;
  if (*s == '0')
    base = (s[1] == 'x' || s[1] == 'X') && augur_digit(s[2], 16) != 99 ? 16 : 8;
  if (base == 16)
    s += 2;
  for (*v = 0; (d = augur_digit(*s, base)) != 99; s++)
    if ((*v = *v * base + d) > 0xffffffffUL)
      return NULL;
  return s;
}

/* The IPv4 address s in any form inet_aton reads (1 to 4 numbers, the last filling the
 * bytes left), all of s, as glibc's getaddrinfo reads a numeric host: 1 with its bytes in
 * a, or 0. */
static inline int augur_parse_aton(const char *s, unsigned char a[4]) {
  unsigned long part[4], v;
  int n = 0, i;
  for (;;) {
    if (!(s = augur_aton_part(s, &part[n++])))
      return 0;
    if (*s != '.')
      break;
    if (n == 4 || part[n - 1] > 0xff)
      return 0;
    s++;
  }
  if (*s || part[n - 1] > 0xffffffffUL >> 8 * (n - 1))
    return 0;
  for (v = part[n - 1], i = 0; i < n - 1; i++)
    v |= part[i] << (24 - 8 * i);
  for (i = 0; i < 4; i++)
    a[i] = (unsigned char)(v >> (24 - 8 * i));
  return 1;
}

/* The dotted IPv4 address s as inet_pton reads it (four decimal numbers to 255 without
 * leading zeros), all of s: 1 with its bytes in a, or 0. */
static inline int augur_parse_dotted(const char *s, unsigned char a[4]) {
  int i;
  for (i = 0; i < 4; i++) {
    unsigned v = 0, n = 0;
    for (; augur_digit(*s, 10) != 99 && n < 4; s++, n++)
      v = v * 10 + (unsigned)(*s - '0');
    if (n == 0 || v > 255 || (n > 1 && s[-(int)n] == '0') || *s != (i < 3 ? '.' : '\0'))
      return 0;
    a[i] = (unsigned char)v;
    s += i < 3;
  }
  return 1;
}

/* The groups of the IPv6 address s as inet_pton reads them, into w (a dotted IPv4 tail as
 * two groups): their number, with *gap the index of "::" (or -1); -1 when s is none. */
static inline int augur_ipv6_groups(const char *s, unsigned w[8], int *gap) {
  int n = 0;
  *gap = -1;
  if (s[0] == ':' && s[1] == ':')
    *gap = 0, s += 2;
  while (*s) {
    unsigned char v4[4];
    unsigned v = 0, d, digits = 0;
    if (n <= 6 && augur_parse_dotted(s, v4)) {
      w[n++] = (unsigned)v4[0] << 8 | v4[1];
      w[n++] = (unsigned)v4[2] << 8 | v4[3];
      return n;
    }
    for (; (d = augur_digit(*s, 16)) != 99 && digits < 4; s++, digits++)
      v = v * 16 + d;
    if (digits == 0 || n == 8 || (*s && *s != ':') || (*s == ':' && !s[1]))
      return -1;
    w[n++] = v;
    if (*s && *++s == ':') {
      if (*gap >= 0)
        return -1;
      *gap = n, s++;
    }
  }
  return n;
}

/* The IPv6 address s as inet_pton reads it, all of s: 1 with its bytes in a, or 0. */
static inline int augur_parse_ipv6(const char *s, unsigned char a[16]) {
  unsigned w[8];
  int gap, n = augur_ipv6_groups(s, w, &gap), i, j;
  if (n < 0 || (gap < 0 ? n != 8 : n == 8))
    return 0;
  memset(a, 0, 16);
  for (i = 0; i < n; i++) {
    j = gap >= 0 && i >= gap ? i + 8 - n : i;
    a[2 * j] = (unsigned char)(w[i] >> 8);
    a[2 * j + 1] = (unsigned char)w[i];
  }
  return 1;
}

/* The literal address s (IPv4 as getaddrinfo reads it, or IPv6): 1 with it in *a, or 0. */
static inline int augur_parse_literal(const char *s, struct augur_addr *a) {
  memset(a, 0, sizeof *a);
  a->family = AF_INET;
  if (augur_parse_aton(s, a->b))
    return 1;
  a->family = AF_INET6;
  return augur_parse_ipv6(s, a->b);
}

/* Whether a is an IPv6 address mapping an IPv4 one (::ffff:a.b.c.d). */
static inline int augur_is_mapped(const struct augur_addr *a) {
  static const unsigned char prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  int i;
  for (i = 0; i < 12 && a->b[i] == prefix[i]; i++)
    ;
  return a->family == AF_INET6 && i == 12;
}

/* a (IPv4) as the IPv6 address that maps it, or (IPv6, mapped) as the IPv4 address it
 * maps: the other family's form of a. */
static inline struct augur_addr augur_remapped(const struct augur_addr *a) {
  struct augur_addr r;
  memset(&r, 0, sizeof r);
  if (a->family == AF_INET) {
    r.family = AF_INET6;
    r.b[10] = r.b[11] = 0xff;
    memcpy(r.b + 12, a->b, 4);
  } else {
    r.family = AF_INET;
    memcpy(r.b, a->b + 12, 4);
  }
  return r;
}

/* ---- Writing numbers and addresses ------------------------------------------------- */

/* v in base (10 or 16, lower case, no leading zeros) at p: the end of its digits. */
static inline char *augur_put_number(char *p, unsigned long v, unsigned base) {
  char digits[24];
  int n = 0;
  do
    digits[n++] = "0123456789abcdef"[v % base];
  while ((v /= base) != 0);
  while (n > 0)
    *p++ = digits[--n];
  return p;
}

/* The IPv4 address b at p as "a.b.c.d": the end. */
static inline char *augur_put_dotted(char *p, const unsigned char b[4]) {
  int i;
  for (i = 0; i < 4; i++) {
    p = augur_put_number(p, b[i], 10);
    *p++ = i < 3 ? '.' : '\0';
  }
  return p - 1;
}

/* The first longest run of at least two zero groups among the eight of IPv6 address b:
 * its start, with its length in *len (0 when there is none). */
static inline int augur_zero_run(const unsigned char b[16], int *len) {
  int best = -1, i, n;
  *len = 0;
  for (i = 0; i < 8; i += n ? n : 1) {
    for (n = 0; i + n < 8 && !b[2 * (i + n)] && !b[2 * (i + n) + 1]; n++)
      ;
    if (n > *len && n >= 2)
      best = i, *len = n;
  }
  return best;
}

/* The IPv6 address b at p as glibc's inet_ntop writes it (the longest zero run as "::",
 * an IPv4-compatible or -mapped address with a dotted tail): the end. */
static inline char *augur_put_ipv6(char *p, const unsigned char b[16]) {
  int len, run = augur_zero_run(b, &len), i;
  for (i = 0; i < 8; i++) {
    if (i == run) {
      *p++ = ':';
      if ((i += len) == 8)
        *p++ = ':';
      i--;
      continue;
    }
    if (i > 0)
      *p++ = ':';
    if (i == 6 && run == 0 && (len == 6 || (len == 5 && b[10] == 0xff && b[11] == 0xff)))
      return augur_put_dotted(p, b + 12);
    p = augur_put_number(p, (unsigned)b[2 * i] << 8 | b[2 * i + 1], 16);
  }
  *p = '\0';
  return p;
}

/* ---- Looking a host up ------------------------------------------------------------- */

/* A host's answer: its addresses and canonical name (NULL for none). */
struct augur_hostans {
  struct augur_addr addr[AUGUR_MAX_ADDRS];
  int n;
  const char *canon;
};

/* The lines of the world's hosts file for name into *h: whether there is any. */
static inline int augur_hosts_named(const char *name, struct augur_hostans *h) {
  int i;
  h->n = 0;
  for (i = 0; i < AUGUR_HOST_LINES; i++)
    if (augur_host_line(i) && augur_same_name(name, augur_hosts[i].name)) {
      h->canon = augur_hosts[i].name;
      h->addr[h->n++] = augur_hosts[i].addr;
    }
  return h->n > 0;
}

/* The name of the world's host at address a, or NULL. */
static inline const char *augur_host_at(const struct augur_addr *a) {
  int i;
  for (i = 0; i < AUGUR_HOST_LINES; i++)
    if (augur_host_line(i) && augur_hosts[i].addr.family == a->family &&
        memcmp(augur_hosts[i].addr.b, a->b, 16) == 0)
      return augur_hosts[i].name;
  return NULL;
}

/* The addresses getaddrinfo gives for a NULL host: the loopback ones, or under AI_PASSIVE
 * the wildcard ones, in glibc's order under AF_UNSPEC. */
static inline void augur_hosts_null(int passive, struct augur_hostans *h) {
  struct augur_addr v4, v6;
  memset(&v4, 0, sizeof v4);
  memset(&v6, 0, sizeof v6);
  v4.family = AF_INET;
  v6.family = AF_INET6;
  if (!passive)
    v4.b[0] = 127, v4.b[3] = 1, v6.b[15] = 1;
  h->addr[0] = passive ? v4 : v6;
  h->addr[1] = passive ? v6 : v4;
  h->n = 2;
  h->canon = NULL;
}

/* Keeps of h's addresses those of family (AF_UNSPEC: all): a mapped IPv6 literal becomes
 * IPv4 for AF_INET; IPv4 ones are mapped for AF_INET6 under AI_V4MAPPED when no IPv6 one
 * is left, or under AI_ALL too. */
static inline void augur_hosts_of_family(struct augur_hostans *h, int family, int flags) {
  struct augur_addr all[AUGUR_MAX_ADDRS];
  int n = h->n, i, v6 = 0;
  memcpy(all, h->addr, sizeof all);
  if (family == AF_UNSPEC)
    return;
  for (h->n = 0, i = 0; i < n; i++)
    if (all[i].family == family)
      h->addr[h->n++] = all[i], v6 += family == AF_INET6;
    else if (family == AF_INET && augur_is_mapped(&all[i]))
      h->addr[h->n++] = augur_remapped(&all[i]);
  if (family != AF_INET6 || !(flags & AI_V4MAPPED) || (v6 && !(flags & AI_ALL)))
    return;
  for (i = 0; i < n; i++)
    if (all[i].family == AF_INET)
      h->addr[h->n++] = augur_remapped(&all[i]);
}

/* The addresses of host name of family (AF_UNSPEC, AF_INET, AF_INET6) under getaddrinfo's
 * flags into *h: 0, EAI_NONAME (an unknown name, or a known one with no address of the
 * family), or EAI_ADDRFAMILY (a literal of the other family). */
static inline int augur_resolve(const char *name, int family, int flags,
                                struct augur_hostans *h) {
  int literal = 0;
  if (!name) {
    augur_hosts_null(flags & AI_PASSIVE, h);
    flags &= ~AI_V4MAPPED; /* glibc maps no address of a NULL host */
  } else if ((literal = augur_parse_literal(name, &h->addr[0])) != 0) {
    h->n = 1;
    h->canon = name;
  } else if ((flags & AI_NUMERICHOST) || !augur_hosts_named(name, h)) {
    return EAI_NONAME;
  }
  augur_hosts_of_family(h, family, flags);
  return h->n > 0 ? 0 : name && literal ? EAI_ADDRFAMILY : EAI_NONAME;
}

/* ---- getaddrinfo ------------------------------------------------------------------- */

/* Services getaddrinfo's answer may have besides a port: none, or a name to look up. */
#define AUGUR_NO_SERVICE (-1L)
#define AUGUR_SERVICE_NAME (-2L)

/* The port service names as glibc reads it (strtoul in base 10, all of the name): 0 with
 * *port, AUGUR_NO_SERVICE or AUGUR_SERVICE_NAME (a name, or a number glibc takes for one),
 * or EAI_NONAME (a name under AI_NUMERICSERV). */
static inline int augur_service_port(const char *service, int flags, long *port) {
  const char *s = service;
  unsigned long v = 0;
  int negative = 0, digits = 0;
  *port = AUGUR_NO_SERVICE;
  if (!service || !*service)
    return 0;
  while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
    s++;
  if (*s == '+' || *s == '-')
    negative = *s++ == '-';
  for (; augur_digit(*s, 10) != 99; s++, digits++) {
    unsigned d = (unsigned)(*s - '0');
    v = v > (~0UL - d) / 10 ? ~0UL : v * 10 + d; /* strtoul saturates */
  }
  if (!digits || *s) {
    *port = AUGUR_SERVICE_NAME;
    return flags & AI_NUMERICSERV ? EAI_NONAME : 0;
  }
  if (negative && v != ~0UL)
    v = 0 - v;
  /* glibc keeps the number in an int, and a negative one is a name */
  *port = (int)v < 0 ? AUGUR_SERVICE_NAME : (long)(v & 0xffff);
  return 0;
}

/* The socket types and protocols of getaddrinfo's answer for the hints' socktype and
 * protocol, as glibc chooses them, into types (their number in *n): 0, or EAI_SOCKTYPE /
 * EAI_SERVICE (no such pair; a service for a raw socket). */
static inline int augur_socket_types(int socktype, int protocol, int service,
                                     struct augur_typeproto types[], int *n) {
  int i;
  *n = 0;
  if (!socktype && !protocol) {
    for (i = 0; i < AUGUR_TYPEPROTOS; i++)
      if (augur_typeprotos[i].dflt)
        types[(*n)++] = augur_typeprotos[i];
    return 0;
  }
  for (i = 0; i < AUGUR_TYPEPROTOS; i++) {
    const struct augur_typeproto *t = &augur_typeprotos[i];
    if ((!socktype || socktype == t->socktype) &&
        (!protocol || t->any || protocol == t->protocol))
      break;
  }
  if (i == AUGUR_TYPEPROTOS)
    return socktype ? EAI_SOCKTYPE : EAI_SERVICE;
  if (service && augur_typeprotos[i].any)
    return EAI_SERVICE;
  types[0] = augur_typeprotos[i];
  if (types[0].any)
    types[0].protocol = protocol;
  *n = 1;
  return 0;
}

/* One entry of getaddrinfo's list with its socket address: freed as one block. */
struct augur_ai {
  struct addrinfo ai;
  union {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
  } sa;
};

/* A new entry for address a, port (AUGUR_NO_SERVICE for none), socket type t and the hints' flags, or
 * NULL when memory runs out. */
static inline struct addrinfo *augur_ai_entry(const struct augur_addr *a, long port,
                                              const struct augur_typeproto *t, int flags) {
  struct augur_ai *e = (struct augur_ai *)malloc(sizeof *e);
  unsigned char be_port[2] = {(unsigned char)(port >> 8), (unsigned char)port};
  if (!e)
    return NULL;
  memset(e, 0, sizeof *e);
  e->ai.ai_flags = flags;
  e->ai.ai_family = a->family;
  e->ai.ai_socktype = t->socktype;
  e->ai.ai_protocol = t->protocol;
  e->ai.ai_addr = (struct sockaddr *)&e->sa;
  if (port < 0)
    be_port[0] = be_port[1] = 0;
  if (a->family == AF_INET) {
    e->ai.ai_addrlen = sizeof e->sa.v4;
    e->sa.v4.sin_family = AF_INET;
    memcpy(&e->sa.v4.sin_port, be_port, 2);
    memcpy(&e->sa.v4.sin_addr, a->b, 4);
  } else {
    e->ai.ai_addrlen = sizeof e->sa.v6;
    e->sa.v6.sin6_family = AF_INET6;
    memcpy(&e->sa.v6.sin6_port, be_port, 2);
    memcpy(&e->sa.v6.sin6_addr, a->b, 16);
  }
  return &e->ai;
}

/* freeaddrinfo(list) of this world: each entry, and the first one's canonical name. */
static inline void augur_fixed_freeaddrinfo(struct addrinfo *list) {
  while (list) {
    struct addrinfo *next = list->ai_next;
    free(list->ai_canonname);
    free(list);
    list = next;
  }
}

/* getaddrinfo's list for host answer h, port (AUGUR_NO_SERVICE for none), the socket types and the
 * hints' flags (AI_CANONNAME: h's canonical name on the first entry) into *res: 0, or
 * EAI_MEMORY. */
static inline int augur_ai_list(const struct augur_hostans *h, long port,
                                const struct augur_typeproto types[], int ntypes, int flags,
                                struct addrinfo **res) {
  struct addrinfo **tail = res;
  int i, j;
  *res = NULL;
  for (i = 0; i < h->n; i++)
    for (j = 0; j < ntypes; j++) {
      if (!(*tail = augur_ai_entry(&h->addr[i], port, &types[j], flags)))
        goto out_of_memory;
      tail = &(*tail)->ai_next;
    }
  if ((flags & AI_CANONNAME) && h->canon) {
    size_t n = strlen(h->canon) + 1;
    if (!((*res)->ai_canonname = (char *)malloc(n)))
      goto out_of_memory;
    memcpy((*res)->ai_canonname, h->canon, n);
  }
  return 0;
out_of_memory:
  augur_fixed_freeaddrinfo(*res);
  *res = NULL;
  return EAI_MEMORY;
}

/* The flags getaddrinfo accepts (glibc's, its IDN ones included). */
#define AUGUR_AI_FLAGS 0x7ff

/* getaddrinfo(node, service, hints, res) of this world, checked in glibc's order: the
 * names ("*" is none), the flags, the family, the service's form, the socket type, the
 * service, the host. */
static inline int augur_fixed_getaddrinfo(const char *node, const char *service,
                                          const struct addrinfo *hints,
                                          struct addrinfo **res) {
  struct addrinfo dflt;
  struct augur_typeproto types[AUGUR_DEFAULT_TYPES];
  struct augur_hostans h;
  long port;
  int ntypes, err;
  if (node && node[0] == '*' && !node[1])
    node = NULL;
  if (service && service[0] == '*' && !service[1])
    service = NULL;
  if (!node && !service)
    return EAI_NONAME;
  if (!hints) {
    memset(&dflt, 0, sizeof dflt);
    dflt.ai_flags = AI_V4MAPPED | AI_ADDRCONFIG;
    hints = &dflt;
  }
  if ((hints->ai_flags & ~AUGUR_AI_FLAGS) || (!node && (hints->ai_flags & AI_CANONNAME)))
    return EAI_BADFLAGS;
  if (hints->ai_family != AF_UNSPEC && hints->ai_family != AF_INET &&
      hints->ai_family != AF_INET6)
    return EAI_FAMILY;
  if ((err = augur_service_port(service, hints->ai_flags, &port)) != 0 ||
      (err = augur_socket_types(hints->ai_socktype, hints->ai_protocol,
                                port != AUGUR_NO_SERVICE, types, &ntypes)) != 0)
    return err;
  if (port == AUGUR_SERVICE_NAME) /* the world has no services */
    return EAI_SERVICE;
  if ((err = augur_resolve(node, hints->ai_family, hints->ai_flags, &h)) != 0)
    return err;
  return augur_ai_list(&h, port, types, ntypes, hints->ai_flags, res);
}

/* gai_strerror(code) of this world: glibc's messages. */
static inline const char *augur_fixed_gai_strerror(int code) {
  static const char *const messages[] = {
      "Bad value for ai_flags",                          /* EAI_BADFLAGS -1 */
      "Name or service not known",                       /* EAI_NONAME -2 */
      "Temporary failure in name resolution",            /* EAI_AGAIN -3 */
      "Non-recoverable failure in name resolution",      /* EAI_FAIL -4 */
      "No address associated with hostname",             /* EAI_NODATA -5 */
      "ai_family not supported",                         /* EAI_FAMILY -6 */
      "ai_socktype not supported",                       /* EAI_SOCKTYPE -7 */
      "Servname not supported for ai_socktype",          /* EAI_SERVICE -8 */
      "Address family for hostname not supported",       /* EAI_ADDRFAMILY -9 */
      "Memory allocation failure",                       /* EAI_MEMORY -10 */
      "System error",                                    /* EAI_SYSTEM -11 */
  };
  static const char *const async[] = {
      "Processing request in progress",         /* EAI_INPROGRESS -100 */
      "Request canceled",                       /* EAI_CANCELED -101 */
      "Request not canceled",                   /* EAI_NOTCANCELED -102 */
      "All requests done",                      /* EAI_ALLDONE -103 */
      "Interrupted by a signal",                /* EAI_INTR -104 */
      "Parameter string not correctly encoded", /* EAI_IDN_ENCODE -105 */
  };
  if (code <= -1 && code >= -11)
    return messages[-1 - code];
  if (code <= -100 && code >= -105)
    return async[-100 - code];
  return "Unknown error";
}

/* ---- getnameinfo ------------------------------------------------------------------- */

/* text into buf of size len: 0, or EAI_OVERFLOW when it does not fit with its NUL. */
static inline int augur_copy_out(char *buf, size_t len, const char *text) {
  size_t n = strlen(text) + 1;
  if (n > len)
    return EAI_OVERFLOW;
  memcpy(buf, text, n);
  return 0;
}

/* The address and port (network order, as two bytes) of socket address sa of length
 * salen into *a and port: 0, or EAI_FAMILY (not IPv4 or IPv6, or too short). */
static inline int augur_sockaddr(const struct sockaddr *sa, size_t salen, struct augur_addr *a,
                                 unsigned char port[2]) {
  const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
  const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
  memset(a, 0, sizeof *a);
  if (!sa || salen < sizeof v4->sin_family)
    return EAI_FAMILY;
  a->family = v4->sin_family;
  if (a->family == AF_INET && salen >= sizeof *v4) {
    memcpy(a->b, &v4->sin_addr, 4);
    memcpy(port, &v4->sin_port, 2);
    return 0;
  }
  if (a->family == AF_INET6 && salen >= sizeof *v6) {
    memcpy(a->b, &v6->sin6_addr, 16);
    memcpy(port, &v6->sin6_port, 2);
    return 0;
  }
  return EAI_FAMILY;
}

/* The host part of getnameinfo for address a (scope id scope) into host of size len: its
 * name in the hosts file unless NI_NUMERICHOST, else (unless NI_NAMEREQD: EAI_NONAME) the
 * address in digits with "%scope" when it has one. */
static inline int augur_host_text(const struct augur_addr *a, unsigned scope, int flags,
                                  char *host, size_t len) {
  const char *name = flags & NI_NUMERICHOST ? NULL : augur_host_at(a);
  char text[64], *p;
  if (name)
    return augur_copy_out(host, len, name);
  if (flags & NI_NAMEREQD)
    return EAI_NONAME;
  p = a->family == AF_INET ? augur_put_dotted(text, a->b) : augur_put_ipv6(text, a->b);
  if (scope) {
    *p++ = '%';
    *augur_put_number(p, scope, 10) = '\0';
  }
  return augur_copy_out(host, len, text);
}

/* The flags getnameinfo accepts (glibc's: NI_NUMERICHOST to NI_IDN). */
#define AUGUR_NI_FLAGS 0x3f

/* getnameinfo(sa, salen, host, hostlen, serv, servlen, flags) of this world: the host as
 * augur_host_text gives it, the port in digits (the world has no service names). */
static inline int augur_fixed_getnameinfo(const struct sockaddr *sa, size_t salen, char *host,
                                          size_t hostlen, char *serv, size_t servlen,
                                          int flags) {
  struct augur_addr a;
  unsigned char port[2];
  char text[8];
  int err;
  if (flags & ~AUGUR_NI_FLAGS)
    return EAI_BADFLAGS;
  if ((err = augur_sockaddr(sa, salen, &a, port)) != 0)
    return err;
  if (host && hostlen > 0 &&
      (err = augur_host_text(&a, a.family == AF_INET6
                                     ? ((const struct sockaddr_in6 *)sa)->sin6_scope_id
                                     : 0,
                             flags, host, hostlen)) != 0)
    return err;
  if (serv && servlen > 0) {
    *augur_put_number(text, (unsigned)port[0] << 8 | port[1], 10) = '\0';
    return augur_copy_out(serv, servlen, text);
  }
  return 0;
}

/* ---- The gethostbyname family ------------------------------------------------------ */

/* *ret for host name, the n addresses a of family, laid out in buf of size len (no
 * aliases): 0, or ERANGE when they do not fit. */
static inline int augur_hostent(const char *name, const struct augur_addr a[], int n,
                                int family, struct hostent *ret, char *buf, size_t len) {
  size_t size = family == AF_INET ? 4 : 16, names = strlen(name) + 1;
  size_t skip = (size_t)(-(uintptr_t)buf & (sizeof(char *) - 1));
  char **lists, *data;
  int i;
  if (len < skip || len - skip < (size_t)(n + 2) * sizeof(char *) + n * size + names)
    return ERANGE;
  lists = (char **)(buf + skip);
  data = (char *)(lists + n + 2);
  lists[0] = NULL; /* the aliases */
  for (i = 0; i < n; i++, data += size) {
    memcpy(data, a[i].b, size);
    lists[1 + i] = data;
  }
  lists[1 + n] = NULL;
  memcpy(data, name, names);
  ret->h_name = data;
  ret->h_aliases = lists;
  ret->h_addrtype = family;
  ret->h_length = (int)size;
  ret->h_addr_list = lists + 1;
  return 0;
}

/* The answer of a gethostby*_r function: *result is ret when err is 0 and n > 0, else
 * NULL with *h_errnop HOST_NOT_FOUND (n is 0) or NETDB_INTERNAL (err); err again. */
static inline int augur_host_result(int err, int n, struct hostent *ret, struct hostent **result,
                                    int *h_errnop) {
  *result = err == 0 && n > 0 ? ret : NULL;
  if (err)
    *h_errnop = NETDB_INTERNAL;
  else if (n == 0)
    *h_errnop = HOST_NOT_FOUND;
  return err;
}

/* gethostbyname2_r of this world: the addresses getaddrinfo gives name for family af
 * (AF_INET or AF_INET6; else EAFNOSUPPORT), named by the literal itself or the host's
 * canonical name; unknown: 0 with *result NULL and HOST_NOT_FOUND. */
static inline int augur_fixed_gethostbyname2_r(const char *name, int af, struct hostent *ret,
                                               char *buf, size_t len, struct hostent **result,
                                               int *h_errnop) {
  struct augur_hostans h;
  if (af != AF_INET && af != AF_INET6)
    return augur_host_result(errno = EAFNOSUPPORT, 1, ret, result, h_errnop);
  if (!name || augur_resolve(name, af, 0, &h) != 0)
    return augur_host_result(0, 0, ret, result, h_errnop);
  return augur_host_result(augur_hostent(h.canon, h.addr, h.n, af, ret, buf, len), h.n, ret,
                           result, h_errnop);
}

/* gethostbyaddr_r of this world: the host at address addr (len bytes of family type) in
 * the hosts file, or 0 with *result NULL and HOST_NOT_FOUND; EAFNOSUPPORT for a length
 * that is not the family's. */
static inline int augur_fixed_gethostbyaddr_r(const void *addr, size_t len, int type,
                                              struct hostent *ret, char *buf, size_t buflen,
                                              struct hostent **result, int *h_errnop) {
  struct augur_addr a;
  const char *name;
  memset(&a, 0, sizeof a);
  a.family = type;
  if ((type != AF_INET || len != 4) && (type != AF_INET6 || len != 16))
    return augur_host_result(errno = EAFNOSUPPORT, 1, ret, result, h_errnop);
  memcpy(a.b, addr, len);
  if ((name = augur_host_at(&a)) == NULL)
    return augur_host_result(0, 0, ret, result, h_errnop);
  return augur_host_result(augur_hostent(name, &a, 1, type, ret, buf, buflen), 1, ret, result,
                           h_errnop);
}

/* getservbyname_r and getservbyport_r of this world, which has no services file: 0 with
 * *result NULL, as glibc's for a service it does not know. */
static inline int augur_fixed_getservby_r(struct servent **result) {
  *result = NULL;
  return 0;
}

/* The static answer of the non-reentrant functions: an entry and room for its lists. */
struct augur_static_host {
  struct hostent h;
  char buf[256];
};

/* gethostbyname2(name, af) of this world: its _r answer in static storage, h_errno set. */
static inline struct hostent *augur_fixed_gethostbyname2(const char *name, int af) {
  static struct augur_static_host s;
  struct hostent *result;
  augur_fixed_gethostbyname2_r(name, af, &s.h, s.buf, sizeof s.buf, &result, &h_errno);
  return result;
}

/* gethostbyaddr(addr, len, type) of this world: its _r answer in static storage, h_errno
 * set. */
static inline struct hostent *augur_fixed_gethostbyaddr(const void *addr, size_t len,
                                                        int type) {
  static struct augur_static_host s;
  struct hostent *result;
  augur_fixed_gethostbyaddr_r(addr, len, type, &s.h, s.buf, sizeof s.buf, &result, &h_errno);
  return result;
}

#endif
