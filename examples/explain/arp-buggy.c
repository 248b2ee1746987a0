#include <stdio.h>
#include <string.h>

struct hwtype { const char *name; int alen; };
static struct hwtype ether = { "ether", 6 };
static struct hwtype ax25 = { "ax25", 7 };

static struct hwtype *get_hwtype(const char *name)
{
    if (strcmp(name, "ether") == 0)
        return &ether;
    if (strcmp(name, "ax25") == 0)
        return &ax25;
    return NULL;
}

int main(int argc, char **argv)
{
    struct hwtype *hw = NULL;
    const char *family = "inet";
    int hw_set = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (argv[i][0] == '-' && (argv[i][1] == 'H' || argv[i][1] == 'A')) {
            hw = get_hwtype(argv[i + 1]);
            hw_set = 1;
        } else if (argv[i][0] == '-' && argv[i][1] == 'A') {
            family = argv[i + 1];
        }
    }
    if (!hw_set)
        hw = &ether;
    printf("family %s\n", family);
    printf("hw %s\n", hw ? hw->name : "(none)");
    return 0;
}
