/*
 * names.c - the name service of the models' world (../fixed_names.h; `augur replay` gives
 * the native run the same answers): getaddrinfo, freeaddrinfo, getnameinfo, gai_strerror
 * and the gethostbyname family over a fixed hosts file (localhost, the host's own name,
 * numeric addresses), no DNS and no services (getservbyname and getservbyport find none).  They replace musl's, whose lookups read
 * /etc/hosts and /etc/services through musl's own stdio (lookup_name.c, lookup_serv.c
 * and getnameinfo.c are not in augur's musl).  Types and numbers are glibc's on x86-64.
 */
#include "libc_internal.h"

#define EAFNOSUPPORT 97

/* <sys/socket.h>, <netinet/in.h> */
typedef unsigned int socklen_t;
typedef unsigned short sa_family_t;
struct sockaddr {
    sa_family_t sa_family;
    char sa_data[14];
};
struct in_addr {
    uint32_t s_addr;
};
struct in6_addr {
    union {
        uint8_t u8[16];
        uint32_t u32[4];
    } u;
};
struct sockaddr_in {
    sa_family_t sin_family;
    uint16_t sin_port;
    struct in_addr sin_addr;
    unsigned char sin_zero[8];
};
struct sockaddr_in6 {
    sa_family_t sin6_family;
    uint16_t sin6_port;
    uint32_t sin6_flowinfo;
    struct in6_addr sin6_addr;
    uint32_t sin6_scope_id;
};
#define AF_UNSPEC 0
#define AF_INET 2
#define AF_INET6 10
#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_SEQPACKET 5
#define SOCK_DCCP 6
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
#define IPPROTO_DCCP 33
#define IPPROTO_SCTP 132
#define IPPROTO_UDPLITE 136

/* <netdb.h> */
struct addrinfo {
    int ai_flags, ai_family, ai_socktype, ai_protocol;
    socklen_t ai_addrlen;
    struct sockaddr *ai_addr;
    char *ai_canonname;
    struct addrinfo *ai_next;
};
struct servent;
struct hostent {
    char *h_name;
    char **h_aliases;
    int h_addrtype, h_length;
    char **h_addr_list;
};
#define AI_PASSIVE 0x1
#define AI_CANONNAME 0x2
#define AI_NUMERICHOST 0x4
#define AI_V4MAPPED 0x8
#define AI_ALL 0x10
#define AI_ADDRCONFIG 0x20
#define AI_NUMERICSERV 0x400
#define NI_NUMERICHOST 1
#define NI_NAMEREQD 8
#define EAI_BADFLAGS (-1)
#define EAI_NONAME (-2)
#define EAI_FAMILY (-6)
#define EAI_SOCKTYPE (-7)
#define EAI_SERVICE (-8)
#define EAI_ADDRFAMILY (-9)
#define EAI_MEMORY (-10)
#define EAI_OVERFLOW (-12)
#define HOST_NOT_FOUND 1
#define NETDB_INTERNAL (-1)

/* h_errno, as glibc's <netdb.h> names it: one thread, one cell (musl's would ask its
 * thread structure). */
int *__h_errno_location(void)
{
    static int cell;
    return &cell;
}
#define h_errno (*__h_errno_location())

#include "../fixed_names.h"

/* Each function below is its augur_fixed_ counterpart in ../fixed_names.h (gethostbyname
 * and gethostbyname_r: for AF_INET; getservbyname and getservbyport: no service). */

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                struct addrinfo **res)
{
    return augur_fixed_getaddrinfo(node, service, hints, res);
}

void freeaddrinfo(struct addrinfo *list) { augur_fixed_freeaddrinfo(list); }

const char *gai_strerror(int code) { return augur_fixed_gai_strerror(code); }

int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen,
                char *serv, socklen_t servlen, int flags)
{
    return augur_fixed_getnameinfo(sa, salen, host, hostlen, serv, servlen, flags);
}

struct hostent *gethostbyname(const char *name)
{
    return augur_fixed_gethostbyname2(name, AF_INET);
}

struct hostent *gethostbyname2(const char *name, int af)
{
    return augur_fixed_gethostbyname2(name, af);
}

int gethostbyname_r(const char *name, struct hostent *ret, char *buf, size_t len,
                    struct hostent **result, int *h_errnop)
{
    return augur_fixed_gethostbyname2_r(name, AF_INET, ret, buf, len, result, h_errnop);
}

int gethostbyname2_r(const char *name, int af, struct hostent *ret, char *buf, size_t len,
                     struct hostent **result, int *h_errnop)
{
    return augur_fixed_gethostbyname2_r(name, af, ret, buf, len, result, h_errnop);
}

struct hostent *gethostbyaddr(const void *addr, socklen_t len, int type)
{
    return augur_fixed_gethostbyaddr(addr, len, type);
}

int gethostbyaddr_r(const void *addr, socklen_t len, int type, struct hostent *ret, char *buf,
                    size_t buflen, struct hostent **result, int *h_errnop)
{
    return augur_fixed_gethostbyaddr_r(addr, len, type, ret, buf, buflen, result, h_errnop);
}

struct servent *getservbyname(const char *name, const char *proto)
{
    (void)name, (void)proto;
    return NULL;
}

struct servent *getservbyport(int port, const char *proto)
{
    (void)port, (void)proto;
    return NULL;
}

int getservbyname_r(const char *name, const char *proto, struct servent *ret, char *buf,
                    size_t len, struct servent **result)
{
    (void)name, (void)proto, (void)ret, (void)buf, (void)len;
    return augur_fixed_getservby_r(result);
}

int getservbyport_r(int port, const char *proto, struct servent *ret, char *buf, size_t len,
                    struct servent **result)
{
    (void)port, (void)proto, (void)ret, (void)buf, (void)len;
    return augur_fixed_getservby_r(result);
}
