
int ext(void);
void log_it(int);
int main(int argc, char **argv) {
  if (argc > 1) log_it(argc);
  if (ext() == 42) { int *p = 0; return *p; } /* NULL */
  return 0;
}
