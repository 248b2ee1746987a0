/* tcas_main.c: the driver of Siemens tcas for augur (appended to tcas.c once its own
 * main is cut off, by bench/inject-tcas.sh): the twelve inputs its main reads with atoi
 * are symbolic ints instead, named as tcas' globals, in its argument order. An
 * Alt_Layer_Value outside 0..3 would read past Positive_RA_Alt_Thresh; tcas' test pool
 * never gives one, and such inputs end here. */
#include "augur.h"
#include <stdio.h>

#define SYMBOLIC(v) augur_make_symbolic(&v, sizeof(int), #v)

int main(void)
{
    initialize();
    SYMBOLIC(Cur_Vertical_Sep);
    SYMBOLIC(High_Confidence);
    SYMBOLIC(Two_of_Three_Reports_Valid);
    SYMBOLIC(Own_Tracked_Alt);
    SYMBOLIC(Own_Tracked_Alt_Rate);
    SYMBOLIC(Other_Tracked_Alt);
    SYMBOLIC(Alt_Layer_Value);
    SYMBOLIC(Up_Separation);
    SYMBOLIC(Down_Separation);
    SYMBOLIC(Other_RAC);
    SYMBOLIC(Other_Capability);
    SYMBOLIC(Climb_Inhibit);
    if (Alt_Layer_Value < 0 || Alt_Layer_Value > 3)
        return 1;
    fprintf(stdout, "%d\n", alt_sep_test());
    return 0;
}
