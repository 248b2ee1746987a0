/* The vendor library behind external.c (linked natively only). */
int vendor_score(int code) { return (code * 7919) % 13; }
