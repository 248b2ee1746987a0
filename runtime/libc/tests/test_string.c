#define _GNU_SOURCE /* GNU basename */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include "model.h"

static int sgn(int x) { return (x > 0) - (x < 0); }

static const char *strs[] = {"", "a", "abc", "abd", "ab", "ABC", "aBc", "hello world",
                             "hello", "\xff\x80", "\x01", "foo,bar;;baz", ",,", "xyzzy",
                             "aaa", "aaab", "ba"};
#define NS (sizeof strs / sizeof strs[0])

/* GNU basename and POSIX __xpg_basename against glibc's, result and argument. */
static void test_basenames(void)
{
    extern char *__xpg_basename(char *);
    static const char *const paths[] = {"", "a", "/", "//", "///", "a/", "a//", "/a", "/a/b",
                                        "a/b/", "a/b//c", "/a//", "..", "./x/", "//a//b//",
                                        "//a", "///a", "//a/", "a///", "//", "a//b"};
    size_t i;
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char g[32], m[32];
        strcpy(g, paths[i]);
        strcpy(m, paths[i]);
        CHECK(strcmp(basename(g), model_basename(m)) == 0, "basename(\"%s\")", paths[i]);
        CHECK(strcmp(__xpg_basename(g), model___xpg_basename(m)) == 0 && strcmp(g, m) == 0,
              "__xpg_basename(\"%s\"): glibc leaves \"%s\", the model \"%s\"", paths[i], g, m);
    }
    CHECK(strcmp(model___xpg_basename(NULL), ".") == 0, "__xpg_basename(NULL)");
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        extern char *dirname(char *);
        char g[32], m[32];
        strcpy(g, paths[i]);
        strcpy(m, paths[i]);
        CHECK(strcmp(dirname(g), model_dirname(m)) == 0, "dirname(\"%s\"): glibc %s, the model %s",
              paths[i], dirname(strcpy(g, paths[i])), model_dirname(strcpy(m, paths[i])));
    }
    CHECK(strcmp(model_dirname(NULL), ".") == 0, "dirname(NULL)");
}

/* glibc's rand, random and rand_r sequences, from several seeds. */
static void test_random(void)
{
    extern void model_srandom(unsigned);
    extern long model_random(void);
    extern void model_srand(unsigned);
    extern int model_rand(void);
    extern int model_rand_r(unsigned *);
    static const unsigned seeds[] = {0, 1, 42, 0x7fffffff, 0xffffffff};
    size_t s;
    int i;
    for (i = 0; i < 5; i++) /* unseeded: as srand(1) */
        CHECK(rand() == model_rand(), "rand() unseeded, call %d", i);
    for (s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        unsigned g = seeds[s], m = seeds[s];
        srand(seeds[s]);
        model_srand(seeds[s]);
        for (i = 0; i < 1000; i++)
            CHECK(rand() == model_rand(), "rand() after srand(%u), call %d", seeds[s], i);
        srandom(seeds[s]);
        model_srandom(seeds[s]);
        for (i = 0; i < 100; i++)
            CHECK(random() == model_random(), "random() after srandom(%u)", seeds[s]);
        for (i = 0; i < 100; i++)
            CHECK(rand_r(&g) == model_rand_r(&m) && g == m, "rand_r(%u)", seeds[s]);
    }
}

/* strverscmp's sign against glibc's, on every pair of strings of up to four bytes
 * over digits, zeros, letters and a dot. */
static void test_strverscmp(void)
{
    extern int model_strverscmp(const char *, const char *);
    static const char alphabet[] = "019a.V";
    enum { BYTES = sizeof alphabet - 1, LONGEST = 4 };
    static char strings[1 + 6 + 36 + 216 + 1296][LONGEST + 1];
    size_t count = 0, i, j;
    int len, k, n;
    for (len = 0; len <= LONGEST; len++) {
        int total = 1;
        for (k = 0; k < len; k++)
            total *= BYTES;
        for (n = 0; n < total; n++, count++) {
            int rest = n;
            for (k = 0; k < len; k++, rest /= BYTES)
                strings[count][k] = alphabet[rest % BYTES];
            strings[count][len] = '\0';
        }
    }
    for (i = 0; i < count; i++)
        for (j = 0; j < count; j++)
            CHECK(sgn(strverscmp(strings[i], strings[j])) ==
                      sgn(model_strverscmp(strings[i], strings[j])),
                  "strverscmp(\"%s\", \"%s\"): glibc %d, the model %d", strings[i], strings[j],
                  strverscmp(strings[i], strings[j]), model_strverscmp(strings[i], strings[j]));
}

/* __cmsg_nxthdr (behind glibc's CMSG_NXTHDR) against glibc's: the header after one of
 * every length up to 80 bytes, in a buffer of every size up to 128, the next header's
 * length 0, 16 or 64. */
static void test_cmsg_nxthdr(void)
{
    extern struct cmsghdr *model___cmsg_nxthdr(struct msghdr *, struct cmsghdr *);
    static const size_t next_lens[] = {0, 16, 64};
    union {
        struct cmsghdr align;
        unsigned char bytes[256];
    } control;
    size_t first, room, k;
    for (first = 0; first <= 80; first++)
        for (room = 0; room <= 128; room++)
            for (k = 0; k < sizeof next_lens / sizeof next_lens[0]; k++) {
                struct msghdr m;
                struct cmsghdr *c = (struct cmsghdr *)control.bytes;
                memset(&control, 0, sizeof control);
                memset(&m, 0, sizeof m);
                m.msg_control = control.bytes;
                m.msg_controllen = room;
                c->cmsg_len = first;
                ((struct cmsghdr *)(control.bytes + CMSG_ALIGN(first)))->cmsg_len = next_lens[k];
                CHECK(__cmsg_nxthdr(&m, c) == model___cmsg_nxthdr(&m, c),
                      "__cmsg_nxthdr: first %zu, room %zu, next %zu", first, room, next_lens[k]);
            }
}

void test_string(void)
{
    test_basenames();
    test_cmsg_nxthdr();
    test_random();
    test_strverscmp();
    size_t i, j, n;
    char a[64], b[64];
    for (i = 0; i < NS; i++) {
        const char *s = strs[i];
        CHECK(model_strlen(s) == strlen(s), "strlen %s", s);
        for (n = 0; n < 6; n++)
            CHECK(model_strnlen(s, n) == strnlen(s, n), "strnlen");
        for (j = 0; j < NS; j++) {
            const char *t = strs[j];
            CHECK(sgn(model_strcmp(s, t)) == sgn(strcmp(s, t)), "strcmp '%s' '%s'", s, t);
            CHECK(sgn(model_strcasecmp(s, t)) == sgn(strcasecmp(s, t)), "strcasecmp '%s' '%s'", s, t);
            for (n = 0; n < 5; n++) {
                CHECK(sgn(model_strncmp(s, t, n)) == sgn(strncmp(s, t, n)), "strncmp");
                CHECK(sgn(model_strncasecmp(s, t, n)) == sgn(strncasecmp(s, t, n)), "strncasecmp");
                CHECK(sgn(model_memcmp(s, t, n < strlen(s) && n < strlen(t) ? n : 0)) ==
                      sgn(memcmp(s, t, n < strlen(s) && n < strlen(t) ? n : 0)), "memcmp");
            }
            CHECK(model_strstr(s, t) == strstr(s, t), "strstr '%s' '%s'", s, t);
            CHECK(model_strspn(s, t) == strspn(s, t), "strspn");
            CHECK(model_strcspn(s, t) == strcspn(s, t), "strcspn");
            CHECK(model_strpbrk(s, t) == strpbrk(s, t), "strpbrk");
            strcpy(a, s); strcpy(b, s);
            CHECK(model_strcat(a, t) == a && strcmp(a, strcat(b, t)) == 0, "strcat");
            for (n = 0; n < 5; n++) {
                strcpy(a, s); strcpy(b, s);
                model_strncat(a, t, n); strncat(b, t, n);
                CHECK(strcmp(a, b) == 0, "strncat");
                memset(a, 'X', sizeof a); memset(b, 'X', sizeof b);
                model_strncpy(a, t, n); strncpy(b, t, n);
                CHECK(memcmp(a, b, sizeof a) == 0, "strncpy");
            }
        }
        for (j = 0; j < 260; j++) {
            int c = (int)j - 2;
            CHECK(model_strchr(s, c) == strchr(s, c), "strchr %d", c);
            CHECK(model_strrchr(s, c) == strrchr(s, c), "strrchr %d", c);
            CHECK(model_memchr(s, c, strlen(s) + 1) == memchr(s, c, strlen(s) + 1), "memchr");
        }
        memset(a, 'X', sizeof a);
        CHECK(model_strcpy(a, s) == a && strcmp(a, s) == 0, "strcpy");
        {
            char *d = model_strdup(s), *e = model_strndup(s, 2);
            CHECK(d && strcmp(d, s) == 0, "strdup");
            CHECK(e && strncmp(e, s, 2) == 0 && strlen(e) == strnlen(s, 2), "strndup");
            free(d); free(e);
        }
    }
    /* memmove overlap both ways, memset, bzero, memcpy */
    for (i = 0; i < 8; i++) {
        for (j = 0; j < 8; j++) {
            for (n = 0; n < 8; n++) {
                char x[32], y[32];
                for (size_t k = 0; k < 32; k++) x[k] = y[k] = (char)k;
                model_memmove(x + i, x + j, n); memmove(y + i, y + j, n);
                CHECK(memcmp(x, y, 32) == 0, "memmove %zu %zu %zu", i, j, n);
            }
        }
    }
    memset(a, 1, 16); model_memset(a, 0x1ff, 8);
    CHECK(a[0] == (char)0xff && a[7] == (char)0xff && a[8] == 1, "memset");
    model_bzero(a, 4);
    CHECK(a[0] == 0 && a[3] == 0 && a[4] == (char)0xff, "bzero");
    CHECK(model_memcpy(b, "xyz", 4) == b && strcmp(b, "xyz") == 0, "memcpy");
    /* strtok / strtok_r */
    {
        const char *inputs[] = {"foo,bar;;baz", ",,a,,b,", "", ",,,", "single", "a b\tc"};
        const char *delims[] = {",;", ",", ",", ",", ",", " \t"};
        for (i = 0; i < 6; i++) {
            char m[64], g[64], *mt, *gt, *ms, *gs;
            strcpy(m, inputs[i]); strcpy(g, inputs[i]);
            mt = model_strtok(m, delims[i]); gt = strtok(g, delims[i]);
            for (;;) {
                CHECK((mt == NULL) == (gt == NULL) && (mt == NULL || (mt - m == gt - g)),
                      "strtok %s", inputs[i]);
                if (!mt || !gt) break;
                mt = model_strtok(NULL, delims[i]); gt = strtok(NULL, delims[i]);
            }
            strcpy(m, inputs[i]); strcpy(g, inputs[i]);
            mt = model_strtok_r(m, delims[i], &ms); gt = strtok_r(g, delims[i], &gs);
            for (;;) {
                CHECK((mt == NULL) == (gt == NULL) && (mt == NULL || (mt - m == gt - g)) &&
                      ms - m == gs - g, "strtok_r %s", inputs[i]);
                if (!mt || !gt) break;
                mt = model_strtok_r(NULL, delims[i], &ms); gt = strtok_r(NULL, delims[i], &gs);
            }
        }
    }
}
