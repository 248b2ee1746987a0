/* regcomp/regexec with glibc's regex_t and int offsets, over musl's engine: the
 * offsets land in the program's 8-byte regmatch_t, bytes from 0x80 match as in
 * glibc's C locale, and the messages are glibc's. An extended pattern repeating nothing
 * (at the start, after '(', '|' or an anchor) is glibc's REG_BADRPT, which musl's engine
 * would take. */
#include <regex.h>
#include <stdio.h>

int main(void) {
  regex_t re;
  regmatch_t m[3];
  char msg[64];
  int r = regcomp(&re, "([a-z]+)=([0-9]+)", REG_EXTENDED);
  printf("regcomp %d nsub %zu\n", r, re.re_nsub);
  r = regexec(&re, "  key=42;", 3, m, 0);
  printf("regexec %d: %d-%d %d-%d %d-%d\n", r, m[0].rm_so, m[0].rm_eo, m[1].rm_so, m[1].rm_eo,
         m[2].rm_so, m[2].rm_eo);
  printf("nomatch %d\n", regexec(&re, "no digits", 0, NULL, 0));
  regfree(&re);
  regcomp(&re, "", 0);
  printf("high byte %d\n", regexec(&re, "a\x80", 0, NULL, 0));
  regfree(&re);
  r = regcomp(&re, "a[b", 0);
  regerror(r, &re, msg, sizeof msg);
  printf("error %d %s\n", r, msg);
  const char *extended[] = {"^*", "*a", "a|+b", "(?:a)", "a$*", "{1}", "\\(^*\\)",
                            "a**", "a*+", "()*", "(^)*", "[*]+", "\\*", "x{1}*", "a\\|*b"};
  for (unsigned i = 0; i < sizeof extended / sizeof *extended; i++) {
    r = regcomp(&re, extended[i], REG_EXTENDED);
    printf("%s %d\n", extended[i], r);
    if (r == 0)
      regfree(&re);
  }
  return 0;
}
