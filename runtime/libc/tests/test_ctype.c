#include <ctype.h>
#include "model.h"

void test_ctype(void)
{
    int c;
    const unsigned short *mb = *model___ctype_b_loc(), *gb = *__ctype_b_loc();
    const int *ml = *model___ctype_tolower_loc(), *gl = *__ctype_tolower_loc();
    const int *mu = *model___ctype_toupper_loc(), *gu = *__ctype_toupper_loc();
    for (c = -128; c < 256; c++) {
        CHECK(mb[c] == gb[c], "ctype_b[%d] %#x vs %#x", c, mb[c], gb[c]);
        CHECK(ml[c] == gl[c], "tolower table [%d]", c);
        CHECK(mu[c] == gu[c], "toupper table [%d]", c);
    }
    for (c = -1; c < 256; c++) {
#define B(f) CHECK(!!model_##f(c) == !!(f)(c), #f "(%d)", c)
        B(isalnum); B(isalpha); B(isdigit); B(isxdigit); B(islower); B(isupper);
        B(isspace); B(ispunct); B(isprint); B(isgraph); B(iscntrl); B(isblank);
        B(isascii);
        CHECK(model_tolower(c) == (tolower)(c), "tolower(%d)", c);
        CHECK(model_toupper(c) == (toupper)(c), "toupper(%d)", c);
    }
    CHECK(model_isascii(200) == 0 && model_isascii(-5) == 0, "isascii range");
    CHECK(model_tolower(1000) == 1000 && model_isalpha(1000) == 0, "out of range");
}
