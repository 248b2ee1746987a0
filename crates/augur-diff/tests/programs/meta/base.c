
static const char *greeting(void) { return "hello"; }
int counter = 3;
int twice(int x) { return 2 * x; }
int bump(void) { return ++counter; }
int main(void) { return twice(bump()) + greeting()[0]; }
