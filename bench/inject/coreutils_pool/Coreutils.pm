# A stand-in for coreutils' tests/Coreutils.pm (bench/inject/coreutils_pool.py): a test
# script's run_tests prints its tests as JSON lines instead of running them.
package Coreutils;
use strict;
use JSON::PP;
use Exporter;
our @ISA = qw(Exporter);
our @EXPORT = qw(run_tests triple_test getlimits);

# Every limit is a number longer than any argument the pool keeps.
package Coreutils::AnyLimit;
sub TIEHASH { return bless {}, shift }
sub FETCH { return '18446744073709551616' }
sub EXISTS { return 1 }

package Coreutils;

sub getlimits() {
  tie my %limits, 'Coreutils::AnyLimit';
  return \%limits;
}

# Each test, and for a test with one input two variants reading it as standard input
# ("NAME.r" through '<', "NAME.p" through a pipe), as the test suite's triple_test makes.
sub triple_test($) {
  my ($tests) = @_;
  my @all;
  foreach my $t (@$tests) {
    push @all, $t;
    my ($name, @rest) = @$t;
    my @in = grep { ref $_ eq 'HASH' && exists $_->{IN} } @rest;
    next if @in != 1;
    my @others = grep { !(ref $_ eq 'HASH' && exists $_->{IN}) } @rest;
    push @all, ["$name.r", @others, '<', $in[0]];
    push @all, ["$name.p", @others, {IN_PIPE => $in[0]{IN}}];
  }
  return @all;
}

# One JSON line per test: its name, its argument strings (as the shell line has them),
# and each input or environment spec by type.
sub run_tests ($$$$$) {
  my ($program_name, $prog, $tests) = @_;
  my $json = JSON::PP->new->canonical->ascii->allow_nonref;
  foreach my $t (@$tests) {
    my ($name, @rest) = @$t;
    my (@args, @specs);
    foreach my $e (@rest) {
      if (!ref $e) { push @args, $e; next }
      next if ref $e ne 'HASH';
      my ($type, $val) = each %$e;
      push @specs, [$type, ref $val ? 'named' : $val] if $type =~ /^(IN|IN_PIPE|ENV|ENV_DEL|PRE|AUX)$/;
    }
    print $json->encode({name => $name, args => \@args, specs => \@specs}), "\n";
  }
  return 0;
}
1;
