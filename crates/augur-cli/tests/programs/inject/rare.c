/* Eight bytes of stdin, each tested and then added up on lines of its own: a bug
 * guarded at one line fires on most mutations of its trigger (those that leave that
 * line's byte alone); only a conjunction over lines that read every byte is rare among
 * them. */
#include <stdio.h>

unsigned char in[8];

int main(void) {
  int letters = 0, sum = 0;
  if (fread(in, 1, sizeof in, stdin) != sizeof in)
    return 1;
  if (in[0] >= 'a')
    letters++;
  if (in[1] >= 'a')
    letters++;
  if (in[2] >= 'a')
    letters++;
  if (in[3] >= 'a')
    letters++;
  if (in[4] >= 'a')
    letters++;
  if (in[5] >= 'a')
    letters++;
  if (in[6] >= 'a')
    letters++;
  if (in[7] >= 'a')
    letters++;
  sum += in[0];
  sum += in[1];
  sum += in[2];
  sum += in[3];
  sum += in[4];
  sum += in[5];
  sum += in[6];
  sum += in[7];
  return letters + sum == 0;
}
