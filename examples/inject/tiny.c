#include "augur.h"

int main(void) {
  unsigned char in[2];
  augur_make_symbolic(in, sizeof in, "in");
  int a = in[0];
  int b = in[1];
  int sum = a + b;
  int diff = a - b;
  int mix = (sum * 3) ^ diff;
  return mix & 1;
}
