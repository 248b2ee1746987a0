/* test_locale.c - the C locale, catalogues and multibyte/wide characters
 * against glibc with an empty locale environment (LANG/LC_* unset). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#include <libintl.h>
#include "model.h"

char *model_setlocale(int, const char *);
char *model_nl_langinfo(nl_item);
struct lconv *model_localeconv(void);
char *model_gettext(const char *);
char *model_dcgettext(const char *, const char *, int);
char *model_ngettext(const char *, const char *, unsigned long);
char *model_textdomain(const char *);
char *model_bindtextdomain(const char *, const char *);
size_t model___ctype_get_mb_cur_max(void);
size_t model_mbrtowc(wchar_t *, const char *, size_t, mbstate_t *);
size_t model_mbrlen(const char *, size_t, mbstate_t *);
int model_mbtowc(wchar_t *, const char *, size_t);
int model_mbsinit(const mbstate_t *);
wint_t model_btowc(int);
int model_wctob(wint_t);
size_t model_wcrtomb(char *, wchar_t, mbstate_t *);
size_t model_mbstowcs(wchar_t *, const char *, size_t);
size_t model_wcstombs(char *, const wchar_t *, size_t);
wctype_t model_wctype(const char *);
int model_iswctype(wint_t, wctype_t);
wint_t model_towlower(wint_t);
wint_t model_towupper(wint_t);
int model_wcwidth(wchar_t);
int model_wcswidth(const wchar_t *, size_t);
int model_iswalnum(wint_t); int model_iswalpha(wint_t); int model_iswblank(wint_t);
int model_iswcntrl(wint_t); int model_iswdigit(wint_t); int model_iswgraph(wint_t);
int model_iswlower(wint_t); int model_iswprint(wint_t); int model_iswpunct(wint_t);
int model_iswspace(wint_t); int model_iswupper(wint_t); int model_iswxdigit(wint_t);

static int same_str(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void test_setlocale(void)
{
    static const char *const names[] = {"", "C", "POSIX", "en_US.UTF-8", "C.UTF-8x", "fr"};
    static const int cats[] = {LC_ALL, LC_CTYPE, LC_MESSAGES, LC_NUMERIC, LC_TIME};
    size_t i, j;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        for (j = 0; j < sizeof cats / sizeof cats[0]; j++) {
            const char *g = setlocale(cats[j], names[i]);
            const char *m = model_setlocale(cats[j], names[i]);
            CHECK(same_str(g, m), "setlocale(%d, \"%s\"): %s vs %s", cats[j], names[i],
                  g ? g : "NULL", m ? m : "NULL");
        }
    CHECK(same_str(setlocale(LC_ALL, NULL), model_setlocale(LC_ALL, NULL)), "query");
}

static void test_langinfo(void)
{
    static const nl_item items[] = {CODESET, RADIXCHAR, THOUSEP, D_T_FMT, D_FMT, T_FMT,
                                    T_FMT_AMPM, AM_STR, PM_STR, YESEXPR, NOEXPR, CRNCYSTR,
                                    ERA, ALT_DIGITS};
    size_t i;
    int k;
    struct lconv *g = localeconv(), *m = model_localeconv();
    for (i = 0; i < sizeof items / sizeof items[0]; i++)
        CHECK(same_str(nl_langinfo(items[i]), model_nl_langinfo(items[i])),
              "nl_langinfo(%#x): \"%s\" vs \"%s\"", items[i], nl_langinfo(items[i]),
              model_nl_langinfo(items[i]));
    for (k = 0; k < 7; k++) {
        CHECK(same_str(nl_langinfo(DAY_1 + k), model_nl_langinfo(DAY_1 + k)), "DAY %d", k);
        CHECK(same_str(nl_langinfo(ABDAY_1 + k), model_nl_langinfo(ABDAY_1 + k)), "ABDAY %d", k);
    }
    for (k = 0; k < 12; k++) {
        CHECK(same_str(nl_langinfo(MON_1 + k), model_nl_langinfo(MON_1 + k)), "MON %d", k);
        CHECK(same_str(nl_langinfo(ABMON_1 + k), model_nl_langinfo(ABMON_1 + k)), "ABMON %d", k);
    }
    CHECK(same_str(g->decimal_point, m->decimal_point), "decimal_point");
    CHECK(same_str(g->thousands_sep, m->thousands_sep), "thousands_sep");
    CHECK(same_str(g->grouping, m->grouping), "grouping");
    CHECK(same_str(g->currency_symbol, m->currency_symbol), "currency_symbol");
    CHECK(same_str(g->negative_sign, m->negative_sign), "negative_sign");
    CHECK(memcmp(&g->int_frac_digits, &m->int_frac_digits, 14) == 0, "lconv char fields");
}

static void test_gettext(void)
{
    const char *msg = "hello";
    CHECK(model_gettext(msg) == msg, "gettext identity");
    CHECK(model_dcgettext("coreutils", msg, LC_MESSAGES) == msg, "dcgettext identity");
    CHECK(same_str(ngettext("one", "many", 1), model_ngettext("one", "many", 1)), "ngettext 1");
    CHECK(same_str(ngettext("one", "many", 2), model_ngettext("one", "many", 2)), "ngettext 2");
    CHECK(same_str(ngettext("one", "many", 0), model_ngettext("one", "many", 0)), "ngettext 0");
    CHECK(same_str(textdomain(NULL), model_textdomain(NULL)), "default domain");
    CHECK(same_str(textdomain("coreutils"), model_textdomain("coreutils")), "textdomain set");
    CHECK(same_str(textdomain(NULL), model_textdomain(NULL)), "textdomain after set");
    CHECK(same_str(bindtextdomain("x", "/usr/share/locale"),
                   model_bindtextdomain("x", "/usr/share/locale")), "bindtextdomain");
    CHECK(same_str(bindtextdomain("y", NULL), model_bindtextdomain("y", NULL)),
          "bindtextdomain query");
}

static void test_multibyte(void)
{
    int b;
    char buf[4], mbuf[4];
    wchar_t wg[8], wm[8];
    mbstate_t sg, sm;
    CHECK(MB_CUR_MAX == model___ctype_get_mb_cur_max(), "MB_CUR_MAX");
    for (b = 0; b < 256; b++) {
        char c = (char)b;
        wchar_t g = 7, m = 7;
        size_t rg, rm;
        int eg, em;
        memset(&sg, 0, sizeof sg);
        memset(&sm, 0, sizeof sm);
        errno = 0;
        rg = mbrtowc(&g, &c, 1, &sg);
        eg = errno;
        errno = 0;
        rm = model_mbrtowc(&m, &c, 1, &sm);
        em = errno;
        CHECK(rg == rm && g == m && eg == em, "mbrtowc(%#x): %zd %d %d vs %zd %d %d", b, rg,
              g, eg, rm, m, em);
        CHECK(mbrlen(&c, 1, &sg) == model_mbrlen(&c, 1, &sm), "mbrlen(%#x)", b);
        CHECK(mbtowc(&g, &c, 1) == model_mbtowc(&m, &c, 1), "mbtowc(%#x)", b);
        CHECK(btowc(b) == model_btowc(b), "btowc(%#x)", b);
        CHECK(mbsinit(&sg) == model_mbsinit(&sm), "mbsinit after %#x", b);
    }
    CHECK(btowc(EOF) == model_btowc(EOF), "btowc(EOF)");
    CHECK(mbrtowc(NULL, NULL, 0, &sg) == model_mbrtowc(NULL, NULL, 0, &sm), "mbrtowc NULL");
    CHECK(mbrtowc(wg, "a", 0, &sg) == model_mbrtowc(wm, "a", 0, &sm), "mbrtowc n=0");
    CHECK(mbtowc(NULL, NULL, 0) == model_mbtowc(NULL, NULL, 0), "mbtowc NULL");
    CHECK(mbtowc(wg, "a", 0) == model_mbtowc(wm, "a", 0), "mbtowc n=0");
    CHECK(mbsinit(NULL) == model_mbsinit(NULL), "mbsinit(NULL)");
    for (b = 0; b < 0x400; b++) {
        size_t rg, rm;
        int eg, em;
        errno = 0;
        rg = wcrtomb(buf, b, &sg);
        eg = errno;
        errno = 0;
        rm = model_wcrtomb(mbuf, b, &sm);
        em = errno;
        CHECK(rg == rm && eg == em && (rg != 1 || buf[0] == mbuf[0]), "wcrtomb(%#x)", b);
        CHECK(wctob(b) == model_wctob(b), "wctob(%#x)", b);
    }
    CHECK(wcrtomb(NULL, 0x400, &sg) == model_wcrtomb(NULL, 0x400, &sm), "wcrtomb NULL");
    CHECK(mbstowcs(wg, "abc", 8) == model_mbstowcs(wm, "abc", 8) && wmemcmp(wg, wm, 4) == 0,
          "mbstowcs");
    CHECK(mbstowcs(NULL, "abcd", 0) == model_mbstowcs(NULL, "abcd", 0), "mbstowcs count");
    CHECK(mbstowcs(wg, "abcdef", 3) == model_mbstowcs(wm, "abcdef", 3) &&
              wmemcmp(wg, wm, 3) == 0, "mbstowcs short");
    CHECK(mbstowcs(wg, "a\x80", 8) == model_mbstowcs(wm, "a\x80", 8), "mbstowcs invalid");
    CHECK(wcstombs(buf, L"ab", 4) == model_wcstombs(mbuf, L"ab", 4) && strcmp(buf, mbuf) == 0,
          "wcstombs");
    CHECK(wcstombs(NULL, L"abc", 0) == model_wcstombs(NULL, L"abc", 0), "wcstombs count");
    CHECK(wcstombs(buf, L"a\x100", 4) == model_wcstombs(mbuf, L"a\x100", 4), "wcstombs bad");
}

static void test_wctype(void)
{
    static const char *const classes[] = {"alnum", "alpha", "blank", "cntrl", "digit",
                                          "graph", "lower", "print", "punct", "space",
                                          "upper", "xdigit"};
    static const wint_t extra[] = {0x100, 0x3000, 0x4e00, 0x1f600, 0x10ffff, 0x110000,
                                   WEOF};
    wint_t c;
    size_t i, k;
    for (c = 0; c < 0x300 + sizeof extra / sizeof extra[0]; c++) {
        wint_t w = c < 0x300 ? c : extra[c - 0x300];
        CHECK(!iswalnum(w) == !model_iswalnum(w), "iswalnum(%#x)", w);
        CHECK(!iswalpha(w) == !model_iswalpha(w), "iswalpha(%#x)", w);
        CHECK(!iswblank(w) == !model_iswblank(w), "iswblank(%#x)", w);
        CHECK(!iswcntrl(w) == !model_iswcntrl(w), "iswcntrl(%#x)", w);
        CHECK(!iswdigit(w) == !model_iswdigit(w), "iswdigit(%#x)", w);
        CHECK(!iswgraph(w) == !model_iswgraph(w), "iswgraph(%#x)", w);
        CHECK(!iswlower(w) == !model_iswlower(w), "iswlower(%#x)", w);
        CHECK(!iswprint(w) == !model_iswprint(w), "iswprint(%#x)", w);
        CHECK(!iswpunct(w) == !model_iswpunct(w), "iswpunct(%#x)", w);
        CHECK(!iswspace(w) == !model_iswspace(w), "iswspace(%#x)", w);
        CHECK(!iswupper(w) == !model_iswupper(w), "iswupper(%#x)", w);
        CHECK(!iswxdigit(w) == !model_iswxdigit(w), "iswxdigit(%#x)", w);
        CHECK(towlower(w) == model_towlower(w), "towlower(%#x)", w);
        CHECK(towupper(w) == model_towupper(w), "towupper(%#x)", w);
        CHECK(wcwidth(w) == model_wcwidth(w), "wcwidth(%#x): %d vs %d", w, wcwidth(w),
              model_wcwidth(w));
        for (k = 0; k < sizeof classes / sizeof classes[0]; k++)
            CHECK(!iswctype(w, wctype(classes[k])) == !model_iswctype(w, model_wctype(classes[k])),
                  "iswctype(%#x, %s)", w, classes[k]);
    }
    CHECK(wctype("nonsense") == model_wctype("nonsense"), "wctype unknown");
    for (i = 0; i < 4; i++) {
        static const wchar_t *const strs[] = {L"abc", L"a\tb", L"a\x80", L""};
        CHECK(wcswidth(strs[i], 8) == model_wcswidth(strs[i], 8), "wcswidth %zu", i);
        CHECK(wcswidth(strs[i], 1) == model_wcswidth(strs[i], 1), "wcswidth %zu n=1", i);
    }
}

locale_t model_newlocale(int, const char *, locale_t);
locale_t model_uselocale(locale_t);
locale_t model_duplocale(locale_t);
void model_freelocale(locale_t);

/* Locale objects: only the C locale can be made; uselocale returns the previous
 * one, which starts as the global locale. */
static void test_locale_objects(void)
{
    static const char *names[] = {"C", "POSIX", "", "xx_YY.UTF-8"};
    size_t i;
    locale_t c;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        int me, ge;
        locale_t m, g;
        errno = 0; m = model_newlocale(LC_ALL_MASK, names[i], (locale_t)0); me = errno;
        errno = 0; g = newlocale(LC_ALL_MASK, names[i], (locale_t)0); ge = errno;
        CHECK((m == NULL) == (g == NULL) && (m != NULL || me == ge), "newlocale('%s')", names[i]);
        if (g != NULL)
            freelocale(g);
    }
    errno = 0;
    CHECK(model_newlocale(1 << 30, "C", (locale_t)0) == NULL && errno == EINVAL,
          "newlocale(bad mask)");
    c = model_newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    CHECK(model_uselocale((locale_t)0) == LC_GLOBAL_LOCALE, "uselocale(0) is global");
    CHECK(model_uselocale(c) == LC_GLOBAL_LOCALE && model_uselocale((locale_t)0) == c &&
              model_uselocale(LC_GLOBAL_LOCALE) == c && model_duplocale(c) != NULL,
          "uselocale switches");
    model_freelocale(c);
}

void test_locale(void)
{
    test_locale_objects();
    /* The analysed program's environment is empty: so is glibc's here. */
    unsetenv("LANG");
    unsetenv("LC_ALL");
    unsetenv("LC_CTYPE");
    unsetenv("LC_MESSAGES");
    unsetenv("LANGUAGE");
    test_setlocale();
    setlocale(LC_ALL, "C");
    test_langinfo();
    test_gettext();
    test_multibyte();
    test_wctype();
}
