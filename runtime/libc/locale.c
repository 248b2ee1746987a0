/*
 * locale.c - the "C"/POSIX locale, message catalogues and multibyte/wide
 * characters as glibc behaves in that locale.
 *
 * Only the C locale exists: setlocale accepts "", "C" and "POSIX" (the
 * analysed program's environment has no LANG/LC_* variables, so "" selects
 * "C", as glibc does with an empty environment) and refuses every other
 * name.  The C locale's character set is ASCII ("ANSI_X3.4-1968"): bytes
 * 0x80..0xff and wide characters above 0x7f are invalid (EILSEQ), as in
 * glibc 2.36.  Message catalogues are the identity (no translations).
 */
#include "libc_internal.h"

/* ---- setlocale, nl_langinfo, localeconv ---------------------------------- */

#define LC_ALL_CATEGORY 6
#define LC_LAST_CATEGORY 12

static char c_locale_name[] = "C";

char *setlocale(int category, const char *name)
{
    if (category < 0 || category > LC_LAST_CATEGORY) {
        errno = EINVAL;
        return NULL;
    }
    if (name == NULL || name[0] == '\0' || strcmp(name, "C") == 0
        || strcmp(name, "POSIX") == 0)
        return c_locale_name;
    return NULL;
}

/* Locale objects (newlocale, uselocale, duplocale, freelocale): there is one,
 * the C locale, and each thread's current locale starts as the global one. */
struct augur_locale {
    const char *name;
};
static struct augur_locale c_locale_object = {c_locale_name};
#define LC_GLOBAL_LOCALE ((struct augur_locale *)-1L)
#define LC_ALL_MASK 0x1fbf /* glibc's: every category bit but LC_ALL's */
static struct augur_locale *current_locale = LC_GLOBAL_LOCALE;

struct augur_locale *newlocale(int mask, const char *name, struct augur_locale *base)
{
    (void)base; /* every object is the C locale */
    if ((mask & ~LC_ALL_MASK) != 0 || name == NULL) {
        errno = EINVAL;
        return NULL;
    }
    if (name[0] == '\0' || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
        return &c_locale_object;
    errno = ENOENT;
    return NULL;
}

struct augur_locale *uselocale(struct augur_locale *loc)
{
    struct augur_locale *old = current_locale;
    if (loc != NULL)
        current_locale = loc;
    return old;
}

struct augur_locale *duplocale(struct augur_locale *loc)
{
    (void)loc;
    return &c_locale_object;
}

void freelocale(struct augur_locale *loc) { (void)loc; }

/* nl_langinfo items: (category << 16) | index, as in glibc's <langinfo.h>. */
#define ITEM(cat, idx) (((cat) << 16) | (idx))
#define LC_CTYPE_CAT 0
#define LC_NUMERIC_CAT 1
#define LC_TIME_CAT 2
#define LC_MONETARY_CAT 4
#define LC_MESSAGES_CAT 5

static const char *const day_names[7] = {
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
static const char *const mon_names[12] = {
    "January", "February", "March", "April", "May", "June", "July",
    "August", "September", "October", "November", "December"};

/* Abbreviations are the first three letters; kept as separate strings. */
static const char *const abday_names[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char *const abmon_names[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

const char *__augur_day_name(int wday, int abbreviated)
{
    return abbreviated ? abday_names[wday] : day_names[wday];
}

const char *__augur_month_name(int mon, int abbreviated)
{
    return abbreviated ? abmon_names[mon] : mon_names[mon];
}

char *nl_langinfo(int item)
{
    int cat = item >> 16, idx = item & 0xffff;
    const char *s = "";
    if (cat == LC_CTYPE_CAT && idx == 14)
        s = "ANSI_X3.4-1968"; /* CODESET */
    else if (cat == LC_NUMERIC_CAT && idx == 0)
        s = "."; /* RADIXCHAR */
    else if (cat == LC_TIME_CAT) {
        if (idx < 7)
            s = abday_names[idx];
        else if (idx < 14)
            s = day_names[idx - 7];
        else if (idx < 26)
            s = abmon_names[idx - 14];
        else if (idx < 38)
            s = mon_names[idx - 26];
        else if (idx == 38)
            s = "AM";
        else if (idx == 39)
            s = "PM";
        else if (idx == 40)
            s = "%a %b %e %H:%M:%S %Y"; /* D_T_FMT */
        else if (idx == 41)
            s = "%m/%d/%y"; /* D_FMT */
        else if (idx == 42)
            s = "%H:%M:%S"; /* T_FMT */
        else if (idx == 43)
            s = "%I:%M:%S %p"; /* T_FMT_AMPM */
    } else if (cat == LC_MONETARY_CAT && idx == 15)
        s = "-"; /* CRNCYSTR */
    else if (cat == LC_MESSAGES_CAT && idx == 0)
        s = "^[yY]"; /* YESEXPR */
    else if (cat == LC_MESSAGES_CAT && idx == 1)
        s = "^[nN]"; /* NOEXPR */
    return (char *)s;
}

/* glibc's struct lconv. */
struct lconv {
    char *decimal_point, *thousands_sep, *grouping, *int_curr_symbol;
    char *currency_symbol, *mon_decimal_point, *mon_thousands_sep;
    char *mon_grouping, *positive_sign, *negative_sign;
    char int_frac_digits, frac_digits, p_cs_precedes, p_sep_by_space;
    char n_cs_precedes, n_sep_by_space, p_sign_posn, n_sign_posn;
    char int_p_cs_precedes, int_p_sep_by_space, int_n_cs_precedes;
    char int_n_sep_by_space, int_p_sign_posn, int_n_sign_posn;
};

static char dot[] = ".", empty[] = "";
static struct lconv c_lconv = {
    dot, empty, empty, empty, empty, empty, empty, empty, empty, empty,
    CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
    CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX};

struct lconv *localeconv(void) { return &c_lconv; }

/* ---- message catalogues: the identity ----------------------------------- */

static char default_domain[] = "messages";
static char default_dir[] = "/usr/share/locale";
static const char *current_domain = default_domain;

char *gettext(const char *msgid) { return (char *)msgid; }

char *dgettext(const char *domain, const char *msgid)
{
    (void)domain;
    return (char *)msgid;
}

char *dcgettext(const char *domain, const char *msgid, int category)
{
    (void)domain;
    (void)category;
    return (char *)msgid;
}

char *ngettext(const char *one, const char *many, unsigned long n)
{
    return (char *)(n == 1 ? one : many);
}

char *dngettext(const char *domain, const char *one, const char *many, unsigned long n)
{
    (void)domain;
    return ngettext(one, many, n);
}

char *dcngettext(const char *domain, const char *one, const char *many, unsigned long n,
                 int category)
{
    (void)category;
    return dngettext(domain, one, many, n);
}

char *textdomain(const char *domain)
{
    if (domain != NULL)
        current_domain = domain[0] == '\0' ? default_domain : domain;
    return (char *)current_domain;
}

char *bindtextdomain(const char *domain, const char *dir)
{
    (void)domain;
    return (char *)(dir != NULL ? dir : default_dir);
}

char *bind_textdomain_codeset(const char *domain, const char *codeset)
{
    (void)domain;
    return (char *)codeset;
}

/* ---- multibyte characters: single-byte ASCII ---------------------------- */

#define EILSEQ 84

size_t __ctype_get_mb_cur_max(void) { return 1; }

size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps)
{
    unsigned char b;
    (void)ps;
    if (s == NULL)
        return 0;
    if (n == 0)
        return (size_t)-2;
    b = (unsigned char)*s;
    if (b >= 0x80) {
        errno = EILSEQ;
        return (size_t)-1;
    }
    if (pwc != NULL)
        *pwc = b;
    return b != 0;
}

size_t mbrlen(const char *s, size_t n, mbstate_t *ps) { return mbrtowc(NULL, s, n, ps); }

int mbtowc(wchar_t *pwc, const char *s, size_t n)
{
    size_t r;
    if (s == NULL)
        return 0; /* not a stateful encoding */
    r = mbrtowc(pwc, s, n, NULL);
    return r == (size_t)-1 || r == (size_t)-2 ? -1 : (int)r;
}

int mblen(const char *s, size_t n) { return mbtowc(NULL, s, n); }

int mbsinit(const mbstate_t *ps)
{
    (void)ps; /* a single-byte encoding never leaves the initial state */
    return 1;
}

wint_t btowc(int c) { return c >= 0 && c < 0x80 ? (wint_t)c : WEOF; }

int wctob(wint_t wc) { return wc < 0x80 ? (int)wc : EOF; }

size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps)
{
    (void)ps;
    if (s == NULL)
        return 1;
    if ((unsigned)wc >= 0x80) {
        errno = EILSEQ;
        return (size_t)-1;
    }
    *s = (char)wc;
    return 1;
}

int wctomb(char *s, wchar_t wc)
{
    if (s == NULL)
        return 0;
    return (int)wcrtomb(s, wc, NULL);
}

size_t mbsrtowcs(wchar_t *dst, const char **src, size_t len, mbstate_t *ps)
{
    const char *s = *src;
    size_t i;
    (void)ps;
    for (i = 0; dst == NULL || i < len; i++, s++) {
        if ((unsigned char)*s >= 0x80) {
            errno = EILSEQ;
            if (dst != NULL)
                *src = s;
            return (size_t)-1;
        }
        if (dst != NULL)
            dst[i] = (unsigned char)*s;
        if (*s == '\0') {
            if (dst != NULL)
                *src = NULL;
            return i;
        }
    }
    *src = s;
    return i;
}

size_t mbstowcs(wchar_t *dst, const char *src, size_t len)
{
    return mbsrtowcs(dst, &src, len, NULL);
}

size_t wcsrtombs(char *dst, const wchar_t **src, size_t len, mbstate_t *ps)
{
    const wchar_t *w = *src;
    size_t i;
    (void)ps;
    for (i = 0; dst == NULL || i < len; i++, w++) {
        if ((unsigned)*w >= 0x80) {
            errno = EILSEQ;
            if (dst != NULL)
                *src = w;
            return (size_t)-1;
        }
        if (dst != NULL)
            dst[i] = (char)*w;
        if (*w == 0) {
            if (dst != NULL)
                *src = NULL;
            return i;
        }
    }
    *src = w;
    return i;
}

size_t wcstombs(char *dst, const wchar_t *src, size_t len)
{
    return wcsrtombs(dst, &src, len, NULL);
}

/* ---- wide-character classes: ASCII classes, nothing above 0x7f --------- */

#define WIDE_CLASS(wname, name)                                                 \
    int wname(wint_t wc) { return wc < 0x80 ? name((int)wc) : 0; }

WIDE_CLASS(iswalnum, isalnum)
WIDE_CLASS(iswalpha, isalpha)
WIDE_CLASS(iswblank, isblank)
WIDE_CLASS(iswcntrl, iscntrl)
WIDE_CLASS(iswdigit, isdigit)
WIDE_CLASS(iswgraph, isgraph)
WIDE_CLASS(iswlower, islower)
WIDE_CLASS(iswprint, isprint)
WIDE_CLASS(iswpunct, ispunct)
WIDE_CLASS(iswspace, isspace)
WIDE_CLASS(iswupper, isupper)
WIDE_CLASS(iswxdigit, isxdigit)

wint_t towlower(wint_t wc) { return wc < 0x80 ? (wint_t)tolower((int)wc) : wc; }
wint_t towupper(wint_t wc) { return wc < 0x80 ? (wint_t)toupper((int)wc) : wc; }

/* wctype(): a class handle is the index of its name here, plus one. */
static const char *const class_names[] = {"alnum", "alpha", "blank", "cntrl",
                                          "digit", "graph", "lower", "print",
                                          "punct", "space", "upper", "xdigit"};
static int (*const class_tests[])(wint_t) = {
    iswalnum, iswalpha, iswblank, iswcntrl, iswdigit, iswgraph,
    iswlower, iswprint, iswpunct, iswspace, iswupper, iswxdigit};

wctype_t wctype(const char *name)
{
    size_t i;
    for (i = 0; i < sizeof class_names / sizeof class_names[0]; i++)
        if (strcmp(name, class_names[i]) == 0)
            return i + 1;
    return 0;
}

int iswctype(wint_t wc, wctype_t desc)
{
    if (desc == 0 || desc > sizeof class_tests / sizeof class_tests[0])
        return 0;
    return class_tests[desc - 1](wc);
}

int wcwidth(wchar_t wc)
{
    if (wc == 0)
        return 0;
    return (unsigned)wc < 0x80 && isprint(wc) ? 1 : -1;
}

int wcswidth(const wchar_t *s, size_t n)
{
    int total = 0, w;
    for (; n > 0 && *s != 0; n--, s++) {
        w = wcwidth(*s);
        if (w < 0)
            return -1;
        total += w;
    }
    return total;
}
