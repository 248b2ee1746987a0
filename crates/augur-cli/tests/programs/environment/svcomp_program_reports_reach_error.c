
extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) { abort(); }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x > 0 && y > 0 && x + y == 7 && x * y == 12) reach_error(); /* REACH */
  return 0;
}
