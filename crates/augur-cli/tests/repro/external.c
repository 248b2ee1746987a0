/* An external library function with no body and no model (defined in a separate,
 * precompiled file the analysis does not see). */
extern int vendor_score(int code);

int totals[10];

void add_total(int s, int code) {
  totals[s] += code; /* s can be past the totals */
}

void tally(int code) {
  int s = vendor_score(code);
  if (s > 9 && code % 3 == 1)
    add_total(s, code);
}

int main(int argc, char **argv) {
  int code = 0;
  for (const char *p = argc > 1 ? argv[1] : ""; *p >= '0' && *p <= '9'; p++)
    code = code * 10 + (*p - '0');
  tally(code);
  return 0;
}
