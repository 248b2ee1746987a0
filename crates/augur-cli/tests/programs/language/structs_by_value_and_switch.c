
#include <augur.h>
struct P { char tag; long v; short w; };
static struct P make(int k) { struct P p = { 'a' + k, k * 100L, (short)k }; return p; }
int main(void) {
  int k; augur_make_symbolic(&k, sizeof k, "k");
  struct P p = make(k);
  struct P q = p;
  switch (q.tag) {
    case 'a': return 10;
    case 'b': if (q.v == 100) return 20; return -1;
    case 'c': case 'd': return 30;
    default: return 40;
  }
}
