
#define _GNU_SOURCE
#include <errno.h>
#include <error.h>
#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#define _(s) gettext(s)
int main(int argc, char **argv) {
  (void)argc;
  program_invocation_name = argv[0];
  if (!setlocale(LC_ALL, "")) return 9;
  bindtextdomain("coreutils", "/usr/share/locale");
  textdomain("coreutils");
  printf("%s %s %zu\n", setlocale(LC_ALL, NULL), nl_langinfo(CODESET), MB_CUR_MAX);
  char buf[4];
  size_t n = fread(buf, 1, 3, stdin);
  mbstate_t st;
  memset(&st, 0, sizeof st);
  int printable = 0, invalid = 0;
  for (size_t i = 0; i < n; i++) {
    wchar_t wc;
    size_t r = mbrtowc(&wc, buf + i, n - i, &st);
    if (r == (size_t)-1) { invalid++; memset(&st, 0, sizeof st); continue; }
    if (iswprint(wc) && wcwidth(wc) == 1 && btowc(buf[i]) == (wint_t)wc) printable++;
  }
  if (!mbsinit(&st)) abort();
  if (invalid) error(0, EILSEQ, _("%d invalid"), invalid);
  printf(ngettext("%d printable byte\n", "%d printable bytes\n", printable), printable);
  return invalid;
}
