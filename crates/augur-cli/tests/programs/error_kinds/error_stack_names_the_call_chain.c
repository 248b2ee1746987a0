
#include <augur.h>
void inner(int *p) { *p = 1; } /* STORE */
void outer(int *p) { inner(p); } /* CALL */
int main(void) { outer(0); return 0; } /* MAIN */
