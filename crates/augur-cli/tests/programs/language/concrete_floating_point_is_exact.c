
int main(void) {
  double x = 0.1 + 0.2;
  float f = 1.0f / 3.0f;
  long double ld = 2.5L;
  int ok = (x != 0.3) && (x == 0.30000000000000004) && (f == 1.0f / 3.0f)
    && ((int)(ld * 2) == 5) && ((unsigned)(-1.0 * -4294967295.0) == 4294967295u);
  return ok;
}
