/* Solver-heavy: insertion sort of 7 symbolic ints, 5,040 paths (one per ordering). */
#include <augur.h>
#define N 7
int main(void) {
  int a[N];
  augur_make_symbolic(a, sizeof a, "a");
  for (int i = 1; i < N; i++) {
    int key = a[i], j = i - 1;
    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
  for (int i = 1; i < N; i++) augur_assert(a[i - 1] <= a[i]);
  return 0;
}
