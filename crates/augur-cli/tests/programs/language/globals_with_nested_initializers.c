
struct S { const char *name; int vals[3]; struct S *next; };
struct S second = { "two", {4, 5, 6}, 0 };
struct S first = { "one", {1, 2, 3}, &second };
const char *names[] = { "x", "yy", "zzz" };
int main(void) {
  int ok = first.next->vals[2] == 6 && first.name[1] == 'n' && names[2][2] == 'z' && second.next == 0;
  return ok;
}
