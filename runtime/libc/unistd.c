/*
 * unistd.c - getopt, getopt_long and getopt_long_only (the descriptor calls are in fd.c).
 *
 * As glibc's: by default argv is permuted so that options after operands
 * are found (`prog file -l`), and the operands end up after the options
 * when -1 is returned; a leading '+' in optstring (or POSIXLY_CORRECT set
 * with setenv) stops at the first operand; a leading '-' returns each
 * operand as option 1 with optarg set.
 * Diagnostics use glibc's wording and go to stderr when opterr is set and
 * optstring does not start with ':'.
 */
#include "libc_internal.h"

/* ---- getopt ------------------------------------------------------------ */

char *optarg;
int optind = 1;
int opterr = 1;
int optopt = '?';

struct option {
    const char *name;
    int has_arg; /* 0 no_argument, 1 required_argument, 2 optional_argument */
    int *flag;
    int val;
};

static char *nextchar;     /* rest of the current short-option cluster */
/* The operands skipped so far, argv[first_nonopt..last_nonopt), moved after the options. */
static int first_nonopt, last_nonopt;

/* Rotate the skipped operands [first_nonopt, last_nonopt) past the options scanned since,
 * [last_nonopt, optind), as glibc does (block swaps, no allocation). */
static void exchange(char **argv)
{
    int bottom = first_nonopt, middle = last_nonopt, top = optind, i;
    char *tmp;
    while (top > middle && middle > bottom) {
        if (top - middle > middle - bottom) {
            int len = middle - bottom;
            for (i = 0; i < len; i++) {
                tmp = argv[bottom + i];
                argv[bottom + i] = argv[top - len + i];
                argv[top - len + i] = tmp;
            }
            top -= len;
        } else {
            int len = top - middle;
            for (i = 0; i < len; i++) {
                tmp = argv[bottom + i];
                argv[bottom + i] = argv[middle + i];
                argv[middle + i] = tmp;
            }
            bottom += len;
        }
    }
    first_nonopt += optind - last_nonopt;
    last_nonopt = optind;
}

static int is_operand(const char *arg) { return arg[0] != '-' || arg[1] == '\0'; }

/* long_option's answer when getopt_long_only should read the element as short options. */
#define AS_SHORT_OPTIONS (-2)

/* The long option argv[optind] names after its `dashes` ("--", or "-" for
 * getopt_long_only). As glibc's: a name that is no long option's prefix is an error,
 * unless getopt_long_only's single-dash element starts with a short option
 * (AS_SHORT_OPTIONS). */
static int long_option(int argc, char *const argv[], const char *optstring,
                       const struct option *longopts, int *longindex,
                       int print_errors, int dashes)
{
    const char *prefix = dashes == 2 ? "--" : "-";
    char *name = argv[optind] + dashes;
    char *eq = name;
    size_t namelen;
    int i, found = -1, exact = 0, ambiguous = 0;
    const struct option *o;

    (void)optstring;
    while (*eq != '\0' && *eq != '=')
        eq++;
    namelen = (size_t)(eq - name);
    for (i = 0; longopts[i].name != NULL; i++) {
        if (strncmp(longopts[i].name, name, namelen) != 0)
            continue;
        if (strlen(longopts[i].name) == namelen) {
            found = i;
            exact = 1;
            break;
        }
        if (found < 0) {
            found = i;
        } else if (longopts[found].has_arg != longopts[i].has_arg ||
                   longopts[found].flag != longopts[i].flag ||
                   longopts[found].val != longopts[i].val) {
            ambiguous = 1;
        }
    }
    if (ambiguous && !exact) {
        if (print_errors) {
            fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:",
                    argv[0], prefix, name);
            for (i = 0; longopts[i].name != NULL; i++) {
                if (strncmp(longopts[i].name, name, namelen) == 0)
                    fprintf(stderr, " '%s%s'", prefix, longopts[i].name);
            }
            fprintf(stderr, "\n");
        }
        nextchar = NULL;
        optind++;
        optopt = 0;
        return '?';
    }
    if (found < 0) {
        if (dashes == 1 && strchr(optstring, name[0]) != NULL)
            return AS_SHORT_OPTIONS;
        if (print_errors)
            fprintf(stderr, "%s: unrecognized option '%s%s'\n", argv[0], prefix, name);
        nextchar = NULL;
        optind++;
        optopt = 0;
        return '?';
    }
    o = &longopts[found];
    optind++;
    nextchar = NULL;
    if (*eq == '=') {
        if (o->has_arg == 0) {
            if (print_errors)
                fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n",
                        argv[0], prefix, o->name);
            optopt = o->val;
            return '?';
        }
        optarg = eq + 1;
    } else if (o->has_arg == 1) {
        if (optind < argc) {
            optarg = argv[optind++];
        } else {
            if (print_errors)
                fprintf(stderr, "%s: option '%s%s' requires an argument\n",
                        argv[0], prefix, o->name);
            optopt = o->val;
            return optstring[0] == ':' ? ':' : '?';
        }
    } else {
        optarg = NULL;
    }
    if (longindex != NULL)
        *longindex = found;
    if (o->flag != NULL) {
        *o->flag = o->val;
        return 0;
    }
    return o->val;
}

static int getopt_core(int argc, char *const argv[], const char *optstring,
                       const struct option *longopts, int *longindex, int long_only)
{
    int ordering = 'p', print_errors = opterr, c; /* 'p'ermute, '-' in order, '+' require */
    const char *spec;
    char **av = (char **)argv; /* permuted in place, as glibc does */

    if (optind == 0) {
        optind = 1;
        nextchar = NULL;
        first_nonopt = last_nonopt = 1;
    }
    if (*optstring == '+' || *optstring == '-') {
        ordering = *optstring;
        optstring++;
    } else if (getenv("POSIXLY_CORRECT") != NULL) {
        ordering = '+';
    }
    if (*optstring == ':')
        print_errors = 0;
    optarg = NULL;

    if (nextchar == NULL || *nextchar == '\0') {
        char *arg;
        if (last_nonopt > optind)
            last_nonopt = optind;
        if (first_nonopt > optind)
            first_nonopt = optind;
        if (ordering == 'p') {
            if (first_nonopt != last_nonopt && last_nonopt != optind)
                exchange(av);
            else if (last_nonopt != optind)
                first_nonopt = optind;
            while (optind < argc && is_operand(argv[optind]))
                optind++;
            last_nonopt = optind;
        }
        if (optind != argc && strcmp(argv[optind], "--") == 0) {
            optind++;
            if (first_nonopt != last_nonopt && last_nonopt != optind)
                exchange(av);
            else if (first_nonopt == last_nonopt)
                first_nonopt = optind;
            last_nonopt = argc;
            optind = argc;
        }
        if (optind >= argc) {
            if (first_nonopt != last_nonopt)
                optind = first_nonopt; /* the operands, now after the options */
            return -1;
        }
        arg = argv[optind];
        if (is_operand(arg)) {
            if (ordering == '+')
                return -1;
            optarg = arg;
            optind++;
            return 1;
        }
        if (longopts != NULL &&
            (arg[1] == '-' ||
             (long_only && (arg[2] != '\0' || strchr(optstring, arg[1]) == NULL)))) {
            int r = long_option(argc, argv, optstring, longopts, longindex, print_errors,
                                arg[1] == '-' ? 2 : 1);
            if (r != AS_SHORT_OPTIONS)
                return r;
        }
        nextchar = arg + 1;
    }

    c = (unsigned char)*nextchar++;
    spec = c == ':' || c == ';' ? NULL : strchr(optstring, c);
    if (*nextchar == '\0')
        optind++;
    if (spec == NULL) {
        if (print_errors)
            fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0], c);
        optopt = c;
        return '?';
    }
    if (spec[1] == ':') {
        if (spec[2] == ':') {
            /* optional argument: only if attached */
            if (*nextchar != '\0') {
                optarg = nextchar;
                optind++;
            } else {
                optarg = NULL;
            }
            nextchar = NULL;
        } else if (*nextchar != '\0') {
            optarg = nextchar;
            optind++;
            nextchar = NULL;
        } else if (optind >= argc) {
            if (print_errors)
                fprintf(stderr, "%s: option requires an argument -- '%c'\n",
                        argv[0], c);
            optopt = c;
            nextchar = NULL;
            return optstring[0] == ':' ? ':' : '?';
        } else {
            optarg = argv[optind++];
            nextchar = NULL;
        }
    }
    return c;
}

int getopt(int argc, char *const argv[], const char *optstring)
{
    return getopt_core(argc, argv, optstring, NULL, NULL, 0);
}

int getopt_long(int argc, char *const argv[], const char *optstring,
                const struct option *longopts, int *longindex)
{
    return getopt_core(argc, argv, optstring, longopts, longindex, 0);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
                     const struct option *longopts, int *longindex)
{
    return getopt_core(argc, argv, optstring, longopts, longindex, 1);
}
