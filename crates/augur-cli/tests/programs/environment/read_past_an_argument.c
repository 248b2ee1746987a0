/* Reads the byte after the last argument's NUL when that argument is "-" (a scanner that
 * looks one byte too far): an out-of-bounds read of argv[2], which natively lies right
 * before the environment's strings. argv[1] is the concrete argument `tail`. */
int main(int argc, char **argv) {
  if (argc == 3 && argv[2][0] == '-' && argv[2][1] == 0)
    return argv[2][2] == 't'; /* PAST */
  return argv[1][0];
}
