# A stand-in for coreutils' tests/CuTmpdir.pm (bench/inject/coreutils_pool.py): the tests
# are listed, not run, so no directory is made.
package CuTmpdir;
sub import { }
1;
