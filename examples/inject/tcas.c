#include <stdio.h>
#include "augur.h"

int own_alt, other_alt, climb_rate, sep;

int inhibit_bias(int up) {
  int bias = up ? climb_rate + 100 : climb_rate;
  return bias;
}

int need_advisory(void) {
  int diff = own_alt - other_alt;
  int bias = inhibit_bias(diff > 0);
  int margin = sep - bias;
  if (margin > 300)
    return 0;
  if (diff > 0)
    return 1;
  return 2;
}

int main(void) {
  augur_make_symbolic(&own_alt, sizeof own_alt, "own_alt");
  augur_make_symbolic(&other_alt, sizeof other_alt, "other_alt");
  augur_make_symbolic(&climb_rate, sizeof climb_rate, "climb_rate");
  augur_make_symbolic(&sep, sizeof sep, "sep");
  if (own_alt < 0 || other_alt < 0 || climb_rate < 0 || sep < 0)
    return 3;
  int adv = need_advisory();
  printf("advisory %d\n", adv);
  return 0;
}
