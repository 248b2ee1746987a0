#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int price = atoi(argv[1]);
  int qty = atoi(argv[2]);
  int total = price * qty;
  int discount = total > 100 ? total / 10 : 0;
  printf("%d\n", total - discount);
  return 0;
}
