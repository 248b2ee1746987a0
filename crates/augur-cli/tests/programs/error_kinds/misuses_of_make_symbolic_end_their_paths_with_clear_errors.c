
int main() {
  unsigned a, b, c;
  char *p;
  const char *invalid_pointer = (const char *)0xf;
  klee_make_symbolic(&a, sizeof(a), "");
  klee_make_symbolic(&p, sizeof(p), "p");
  if (a == 2)
    klee_make_symbolic(&c, sizeof(c), invalid_pointer); /* INVALID */
  if (a == 3)
    klee_make_symbolic(&c, sizeof(c), p); /* SYMBOLIC */
  klee_make_symbolic(&b, sizeof(b)); /* MISSING */
  return 0;
}
