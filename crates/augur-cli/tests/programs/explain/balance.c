#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int deposit = atoi(argv[1]);
    int fee = atoi(argv[2]);
    int balance = deposit;
    balance = balance - fee; /* FEE */
    printf("balance %d\n", balance);
    return 0;
}
