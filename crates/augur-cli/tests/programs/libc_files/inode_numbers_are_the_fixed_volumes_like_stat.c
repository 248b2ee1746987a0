/* stat and ls -i print inode numbers and devices: the model numbers files in the order
 * they are made, as the native run's own volume (a fresh tmpfs) does, and both show the
 * fixed volume's device. Files renamed keep their numbers; a directory mkdir made has its
 * own; readdir's numbers are stat's; standard input, a file, has its own. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0)
    printf("%s: %lx %lu %lu\n", path, (unsigned long)st.st_dev, (unsigned long)st.st_ino,
           (unsigned long)st.st_nlink);
  else
    perror(path);
}

int main(void) {
  char c = 0;
  int fd = open("A", O_RDONLY);
  if (read(fd, &c, 1) == 1 && c == 'x') { /* two paths */
    show(".");
    show("..");
    struct stat in;
    if (fstat(0, &in) == 0)
      printf("stdin: %lx %lu\n", (unsigned long)in.st_dev, (unsigned long)in.st_ino);
  }
  close(fd);
  show("/tmp");
  show("A");
  show("B");
  mkdir("d", 0755);
  close(open("d/new", O_CREAT | O_WRONLY, 0644));
  close(open("/tmp/t", O_CREAT | O_WRONLY, 0644));
  rename("A", "d/A2");
  show("d");
  show("d/new");
  show("/tmp/t");
  show("d/A2");
  DIR *dir = opendir("d");
  struct dirent *e;
  while ((e = readdir(dir)))
    printf("entry %s %lu\n", e->d_name, (unsigned long)e->d_ino);
  closedir(dir);
  return 0;
}
