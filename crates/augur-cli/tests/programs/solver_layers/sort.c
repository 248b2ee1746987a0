
#include <augur.h>
#define N 4
int main(void) {
  int a[N];
  augur_make_symbolic(a, sizeof a, "a");
  for (int i = 0; i < N; i++)
    for (int j = N - 1; j > i; j--)
      if (a[j - 1] > a[j]) { int t = a[j]; a[j] = a[j - 1]; a[j - 1] = t; }
  for (int i = 1; i < N; i++) augur_assert(a[i - 1] <= a[i]);
  augur_assert(a[0] < a[N - 1]); /* ALL EQUAL */
  return 0;
}
