/*
 * time.c - a fixed clock and UTC calendar: the time is always
 * 2024-01-01 00:00:00 UTC (../fixed_time.h; `augur replay` gives the native
 * run the same clock), the time zone is UTC; strftime follows glibc in the C
 * locale.
 */
#include "libc_internal.h"
#include "../fixed_time.h"

#define FIXED_TIME AUGUR_FIXED_TIME

/* glibc's struct tm, timespec and timeval (x86-64). */
struct tm {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
    long tm_gmtoff;
    const char *tm_zone;
};
struct timespec {
    long tv_sec, tv_nsec;
};
struct timeval {
    long tv_sec, tv_usec;
};

long time(long *t)
{
    if (t != NULL)
        *t = FIXED_TIME;
    return FIXED_TIME;
}

int clock_gettime(int clock, struct timespec *ts)
{
    if (clock < 0 || clock >= AUGUR_CLOCKS) {
        errno = EINVAL;
        return -1;
    }
    ts->tv_sec = FIXED_TIME;
    ts->tv_nsec = 0;
    return 0;
}

/* The time zone is always UTC: nothing to read from the environment. */
void tzset(void) {}

int gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    if (tv != NULL) {
        tv->tv_sec = FIXED_TIME;
        tv->tv_usec = 0;
    }
    return 0;
}

static int is_leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static const short days_before[2][13] = {
    {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
    {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};

static char utc_name[] = "GMT"; /* glibc names UTC "GMT" in gmtime */
static char local_name[] = "UTC"; /* and "UTC" in localtime, in the zone Etc/UTC */

struct tm *gmtime_r(const long *t, struct tm *tm)
{
    long days = *t / 86400, secs = *t % 86400, y = 1970;
    int leap, m;
    if (secs < 0) {
        secs += 86400;
        days--;
    }
    tm->tm_wday = (int)((4 + days % 7 + 7) % 7); /* 1970-01-01 was a Thursday */
    /* Whole 400-year cycles (146097 days) first, then year by year. */
    y += 400 * (days / 146097);
    days %= 146097;
    if (days < 0) {
        days += 146097;
        y -= 400;
    }
    while (days >= 365 + is_leap(y)) {
        days -= 365 + is_leap(y);
        y++;
    }
    leap = is_leap(y);
    for (m = 0; days >= days_before[leap][m + 1]; m++)
        ;
    tm->tm_year = (int)(y - 1900);
    tm->tm_yday = (int)days;
    tm->tm_mon = m;
    tm->tm_mday = (int)(days - days_before[leap][m] + 1);
    tm->tm_hour = (int)(secs / 3600);
    tm->tm_min = (int)(secs / 60 % 60);
    tm->tm_sec = (int)(secs % 60);
    tm->tm_isdst = 0;
    tm->tm_gmtoff = 0;
    tm->tm_zone = utc_name;
    return tm;
}

/* The local time zone is UTC (Debian's /etc/localtime, Etc/UTC; `augur replay` runs the
 * native program with no TZ). */
struct tm *localtime_r(const long *t, struct tm *tm)
{
    if (gmtime_r(t, tm) != NULL)
        tm->tm_zone = local_name;
    return tm;
}

static struct tm static_tm;

struct tm *gmtime(const long *t) { return gmtime_r(t, &static_tm); }
struct tm *localtime(const long *t) { return localtime_r(t, &static_tm); }

/* Days from 1970-01-01 to the first of January of year y. */
static long days_to_year(long y)
{
    long d = 0;
    while (y < 1970)
        d -= 365 + is_leap(y++);
    y--;
    return d + (y - 1969) * 365 + (y / 4 - 1969 / 4) - (y / 100 - 1969 / 100)
           + (y / 400 - 1969 / 400);
}

long timegm(struct tm *tm)
{
    long y = tm->tm_year + 1900L + tm->tm_mon / 12, mon = tm->tm_mon % 12, t;
    if (mon < 0) {
        mon += 12;
        y--;
    }
    t = (days_to_year(y) + days_before[is_leap(y)][mon] + tm->tm_mday - 1) * 86400L
        + tm->tm_hour * 3600L + tm->tm_min * 60L + tm->tm_sec;
    gmtime_r(&t, tm);
    return t;
}

long mktime(struct tm *tm) { return timegm(tm); }

/* ---- strftime ------------------------------------------------------------- */

const char *__augur_day_name(int wday, int abbreviated);
const char *__augur_month_name(int mon, int abbreviated);

/* ISO 8601 week-based year and week of tm (for %G, %g, %V). */
static int iso_week(const struct tm *tm, long *year)
{
    long y = tm->tm_year + 1900L;
    int wday = (tm->tm_wday + 6) % 7; /* Monday = 0 */
    int week = (tm->tm_yday - wday + 10) / 7;
    if (week < 1) {
        long py = y - 1;
        int pyday = tm->tm_yday + 365 + is_leap(py);
        week = (pyday - wday + 10) / 7;
        y = py;
    } else if (week == 53 && tm->tm_yday - wday + 3 >= 365 + is_leap(y)) {
        week = 1;
        y++;
    }
    *year = y;
    return week;
}

struct out {
    char *buf;
    size_t max, len;
};

/* One conversion's flags, as glibc reads them between '%' and the conversion: the
 * padding ('_', '-', '0' or 0: the conversion's own), the field width (-1: none),
 * the case changes ('^' upper, '#' swap: upper for names, lower for %p and %Z). */
struct spec {
    int pad, width, upper, lower, swap;
};

/* Put `count` bytes `c` (those past the buffer are only counted). */
static void repeat(struct out *o, char c, size_t count)
{
    while (count > 0 && o->len < o->max) {
        o->buf[o->len++] = c;
        count--;
    }
    o->len += count;
}

/* Put the n bytes of s as one field: padded on the left to the width (with '0's
 * for the '0' flag, else spaces), in the case the flags ask for. */
static void field(struct out *o, const struct spec *sp, const char *s, size_t n)
{
    size_t i;
    if (sp->width > 0 && (size_t)sp->width > n)
        repeat(o, sp->pad == '0' ? '0' : ' ', (size_t)sp->width - n);
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (sp->lower && c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        else if (sp->upper && !sp->lower && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        repeat(o, c, 1);
    }
}

/* A number of at least `digits` digits (or the width, if wider and `by_width`: all
 * but %s): padded with '0's after its sign, or with spaces ('_'), or not at all ('-',
 * where the width still pads with spaces), as glibc does. */
static void number(struct out *o, struct spec sp, int digits, int by_width, long v)
{
    char rev[24], text[24];
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    int n = 0, k, padding;
    do
        rev[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        rev[n++] = '-';
    if (by_width && sp.width > digits)
        digits = sp.width;
    padding = digits - n;
    if (sp.pad != '-' && padding > 0) {
        if (sp.pad == '_') {
            repeat(o, ' ', (size_t)padding);
            sp.width = sp.width > padding ? sp.width - padding : 0;
        } else {
            if (v < 0) {
                repeat(o, '-', 1);
                n--;
            }
            repeat(o, '0', (size_t)padding);
            sp.width = 0;
        }
    }
    for (k = 0; k < n; k++)
        text[k] = rev[n - 1 - k];
    field(o, &sp, text, (size_t)n);
}

static size_t format(char *buf, size_t max, const char *fmt, const struct tm *tm);

/* A conversion made of others ("%D" is "%m/%d/%y"): formatted alone, then put as one
 * field (width and '^' apply to the whole). */
static void subformat(struct out *o, const struct spec *sp, const char *fmt,
                      const struct tm *tm)
{
    char tmp[128];
    size_t n = format(tmp, sizeof tmp, fmt, tm);
    struct spec whole = *sp;
    whole.lower = 0;
    field(o, &whole, tmp, n);
}

/* The conversion at f (after its flags, width and modifier), glibc's in the C
 * locale; returns 0 when glibc takes it for a bad format (an unknown conversion,
 * or a modifier the conversion does not take). */
static int conversion(struct out *o, struct spec sp, char mod, char c, const struct tm *tm)
{
    long iy;
    int hour12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
    int spacepad = 0, digits = 2;
    long v;
    const char *s;
    /* Which modifiers each conversion refuses: E and O, E only, or O only. */
    if ((strchr("aADF", c) != NULL && mod != 0)
        || (strchr("bhBdeHIklMmSUVgGWwj", c) != NULL && mod == 'E')
        || (strchr("cxXY", c) != NULL && mod == 'O'))
        return 0;
    switch (c) {
    case '%': field(o, &sp, "%", 1); return 1;
    case 'n': field(o, &sp, "\n", 1); return 1;
    case 't': field(o, &sp, "\t", 1); return 1;
    case 'a': case 'A':
        sp.upper |= sp.swap;
        s = __augur_day_name(tm->tm_wday, c == 'a');
        field(o, &sp, s, strlen(s));
        return 1;
    case 'b': case 'h': case 'B':
        sp.upper |= sp.swap;
        s = __augur_month_name(tm->tm_mon, c != 'B');
        field(o, &sp, s, strlen(s));
        return 1;
    case 'p': case 'P':
        sp.lower = c == 'P' || sp.swap;
        field(o, &sp, tm->tm_hour < 12 ? "AM" : "PM", 2);
        return 1;
    case 'Z':
        sp.lower = sp.swap;
        s = tm->tm_zone != NULL ? tm->tm_zone : "";
        field(o, &sp, s, strlen(s));
        return 1;
    case 'c': subformat(o, &sp, "%a %b %e %H:%M:%S %Y", tm); return 1;
    case 'D': case 'x': subformat(o, &sp, "%m/%d/%y", tm); return 1;
    case 'F': subformat(o, &sp, "%Y-%m-%d", tm); return 1;
    case 'r': subformat(o, &sp, "%I:%M:%S %p", tm); return 1;
    case 'R': subformat(o, &sp, "%H:%M", tm); return 1;
    case 'T': case 'X': subformat(o, &sp, "%H:%M:%S", tm); return 1;
    case 'z': {
        long off = tm->tm_gmtoff, a = off < 0 ? -off : off;
        if (tm->tm_isdst < 0)
            return 1;
        field(o, &sp, off < 0 ? "-" : "+", 1);
        number(o, sp, 4, 1, a / 3600 * 100 + a / 60 % 60);
        return 1;
    }
    case 's': {
        struct tm copy = *tm;
        number(o, sp, 1, 0, timegm(&copy));
        return 1;
    }
    case 'C': digits = 1; v = (tm->tm_year + 1900L) / 100 - ((tm->tm_year + 1900L) % 100 < 0); break;
    case 'd': v = tm->tm_mday; break;
    case 'e': spacepad = 1; v = tm->tm_mday; break;
    case 'G': digits = 1; iso_week(tm, &iy); v = iy; break;
    case 'g': iso_week(tm, &iy); v = (iy % 100 + 100) % 100; break;
    case 'H': v = tm->tm_hour; break;
    case 'I': v = hour12; break;
    case 'j': digits = 3; v = tm->tm_yday + 1; break;
    case 'k': spacepad = 1; v = tm->tm_hour; break;
    case 'l': spacepad = 1; v = hour12; break;
    case 'm': v = tm->tm_mon + 1; break;
    case 'M': v = tm->tm_min; break;
    case 'S': v = tm->tm_sec; break;
    case 'u': digits = 1; v = tm->tm_wday == 0 ? 7 : tm->tm_wday; break;
    case 'U': v = (tm->tm_yday + 7 - tm->tm_wday) / 7; break;
    case 'V': v = iso_week(tm, &iy); break;
    case 'w': digits = 1; v = tm->tm_wday; break;
    case 'W': v = (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7; break;
    case 'y': v = ((tm->tm_year + 1900L) % 100 + 100) % 100; break;
    case 'Y': digits = 1; v = tm->tm_year + 1900L; break;
    default: return 0;
    }
    if (spacepad && sp.pad != '0' && sp.pad != '-')
        sp.pad = '_';
    number(o, sp, digits, 1, (int)v);
    return 1;
}

/* glibc's strftime loop: a byte as itself; a '%', its flags, width and modifier and
 * the conversion; a bad format (or a '%' ending the format) as its own text, from the
 * '%' on, as one field. */
static size_t format(char *buf, size_t max, const char *fmt, const struct tm *tm)
{
    struct out o = {buf, max, 0};
    const char *f, *start;
    for (f = fmt; *f != '\0'; f++) {
        struct spec sp = {0, -1, 0, 0, 0};
        struct spec plain = {0, -1, 0, 0, 0};
        char mod = 0;
        if (*f != '%') {
            field(&o, &plain, f, 1);
            continue;
        }
        start = f;
        for (;;) {
            char c = *++f;
            if (c == '_' || c == '-' || c == '0')
                sp.pad = c;
            else if (c == '^')
                sp.upper = 1;
            else if (c == '#')
                sp.swap = 1;
            else
                break;
        }
        if (*f >= '0' && *f <= '9') {
            sp.width = 0;
            for (; *f >= '0' && *f <= '9'; f++)
                sp.width = sp.width > INT_MAX / 10 - 1 ? INT_MAX : sp.width * 10 + (*f - '0');
        }
        if (*f == 'E' || *f == 'O')
            mod = *f++;
        if ((*f == 'b' || *f == 'h') && sp.swap)
            sp.upper = 1; /* even in a refused format's text, as glibc's */
        if (*f == '\0')
            f--; /* a '%' at the end of the format: its text, as a bad format */
        else if (conversion(&o, sp, mod, *f, tm))
            continue;
        field(&o, &sp, start, (size_t)(f - start + 1));
    }
    if (o.len < max)
        buf[o.len] = '\0';
    return o.len;
}

size_t strftime(char *buf, size_t max, const char *fmt, const struct tm *tm)
{
    size_t n = format(buf, max, fmt, tm);
    if (n >= max)
        return 0; /* did not fit (the contents are then unspecified) */
    return n;
}
