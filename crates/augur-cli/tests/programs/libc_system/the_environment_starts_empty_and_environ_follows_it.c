/* The program starts with an empty environment, in the analysis and in augur replay's
 * native run alike, and environ follows setenv, putenv, unsetenv and clearenv as glibc's
 * does (coreutils' env and printenv walk it): a program printing its environment prints
 * the same in both. */
#define _GNU_SOURCE
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void print_environment(const char *when) {
  char **e;
  printf("%s:", when);
  for (e = environ; e != NULL && *e != NULL; e++)
    printf(" %s", *e);
  printf("\n");
}

int main(void) {
  static char own[] = "OWN=1";
  static char *replaced[] = {"R=1", "S=2", NULL};
  print_environment("start");
  printf("locale %s, HOME %s\n", setlocale(LC_ALL, ""), getenv("HOME") ? "set" : "unset");
  setenv("A", "1", 0);
  setenv("B", "2", 0);
  setenv("A", "3", 0);
  putenv(own);
  print_environment("set");
  setenv("A", "4", 1);
  own[4] = '5';
  unsetenv("B");
  print_environment("changed");
  environ = replaced;
  setenv("T", "3", 1);
  print_environment("replaced");
  clearenv();
  printf("cleared %s\n", environ == NULL ? "NULL" : "not NULL");
  setenv("C", "6", 1);
  print_environment("after");
  return 0;
}
