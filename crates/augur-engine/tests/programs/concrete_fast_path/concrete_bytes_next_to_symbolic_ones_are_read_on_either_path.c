
int input(void);
struct s { int a; int sym; short b; signed char c; } t = {5, 0, -3, 9};
int main(void) {
  t.sym = input();
  int r = t.a + t.b + t.c;
  if (t.sym == 100) return r + 1000;
  return r;
}
