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

static void put(struct out *o, const char *s, size_t n)
{
    while (n-- > 0) {
        if (o->len < o->max)
            o->buf[o->len] = *s;
        o->len++;
        s++;
    }
}

static void put_num(struct out *o, long v, int width, char pad)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, pad == '0' ? "%0*ld" : "%*ld", width, v);
    put(o, tmp, (size_t)n);
}

static void format(struct out *o, const char *fmt, const struct tm *tm);

static void conversion(struct out *o, char c, const struct tm *tm)
{
    long iy;
    int hour12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
    const char *s;
    switch (c) {
    case 'a': case 'A':
        s = __augur_day_name(tm->tm_wday, c == 'a');
        put(o, s, strlen(s));
        break;
    case 'b': case 'h': case 'B':
        s = __augur_month_name(tm->tm_mon, c != 'B');
        put(o, s, strlen(s));
        break;
    case 'c': format(o, "%a %b %e %H:%M:%S %Y", tm); break;
    case 'C': put_num(o, (tm->tm_year + 1900L) / 100, 2, '0'); break;
    case 'd': put_num(o, tm->tm_mday, 2, '0'); break;
    case 'D': case 'x': format(o, "%m/%d/%y", tm); break;
    case 'e': put_num(o, tm->tm_mday, 2, ' '); break;
    case 'F': format(o, "%Y-%m-%d", tm); break;
    case 'G': iso_week(tm, &iy); put_num(o, iy, 1, '0'); break;
    case 'g': iso_week(tm, &iy); put_num(o, (iy % 100 + 100) % 100, 2, '0'); break;
    case 'H': put_num(o, tm->tm_hour, 2, '0'); break;
    case 'I': put_num(o, hour12, 2, '0'); break;
    case 'j': put_num(o, tm->tm_yday + 1, 3, '0'); break;
    case 'k': put_num(o, tm->tm_hour, 2, ' '); break;
    case 'l': put_num(o, hour12, 2, ' '); break;
    case 'm': put_num(o, tm->tm_mon + 1, 2, '0'); break;
    case 'M': put_num(o, tm->tm_min, 2, '0'); break;
    case 'n': put(o, "\n", 1); break;
    case 'p': put(o, tm->tm_hour < 12 ? "AM" : "PM", 2); break;
    case 'P': put(o, tm->tm_hour < 12 ? "am" : "pm", 2); break;
    case 'r': format(o, "%I:%M:%S %p", tm); break;
    case 'R': format(o, "%H:%M", tm); break;
    case 's': {
        struct tm copy = *tm;
        put_num(o, timegm(&copy), 1, '0');
        break;
    }
    case 'S': put_num(o, tm->tm_sec, 2, '0'); break;
    case 't': put(o, "\t", 1); break;
    case 'T': case 'X': format(o, "%H:%M:%S", tm); break;
    case 'u': put_num(o, tm->tm_wday == 0 ? 7 : tm->tm_wday, 1, '0'); break;
    case 'U': put_num(o, (tm->tm_yday + 7 - tm->tm_wday) / 7, 2, '0'); break;
    case 'V': put_num(o, iso_week(tm, &iy), 2, '0'); break;
    case 'w': put_num(o, tm->tm_wday, 1, '0'); break;
    case 'W': put_num(o, (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7, 2, '0'); break;
    case 'y': put_num(o, ((tm->tm_year + 1900L) % 100 + 100) % 100, 2, '0'); break;
    case 'Y': put_num(o, tm->tm_year + 1900L, 1, '0'); break;
    case 'z': {
        long off = tm->tm_gmtoff, a = off < 0 ? -off : off;
        put(o, off < 0 ? "-" : "+", 1);
        put_num(o, a / 3600 * 100 + a / 60 % 60, 4, '0');
        break;
    }
    case 'Z': s = tm->tm_zone != NULL ? tm->tm_zone : ""; put(o, s, strlen(s)); break;
    case '%': put(o, "%", 1); break;
    default: { /* unknown: copied as is, like glibc */
        char pair[2] = {'%', c};
        put(o, pair, 2);
    }
    }
}

static void format(struct out *o, const char *fmt, const struct tm *tm)
{
    for (; *fmt != '\0'; fmt++) {
        if (*fmt != '%' || fmt[1] == '\0') {
            put(o, fmt, 1);
            continue;
        }
        fmt++;
        while (*fmt == 'E' || *fmt == 'O') /* C locale: no alternatives */
            fmt++;
        if (*fmt == '\0')
            break;
        conversion(o, *fmt, tm);
    }
}

size_t strftime(char *buf, size_t max, const char *fmt, const struct tm *tm)
{
    struct out o = {buf, max, 0};
    format(&o, fmt, tm);
    if (o.len >= max)
        return 0; /* did not fit (the contents are then unspecified) */
    buf[o.len] = '\0';
    return o.len;
}
