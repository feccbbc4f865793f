#!/usr/bin/perl
# A Coexist protocol bot in Perl (core language only, no modules beyond
# strict/warnings): it plays a random legal move, seeded by newgame's seed
# plus its "offset" option.
#
# It reads messages with patterns instead of a JSON parser. That is allowed
# because a frontend writes every command compactly, "type" first and "id"
# second, and writes the legal moves as "legal":[...] (docs/protocol.md).
use strict;
use warnings;

$| = 1;                                   # flush every reply
my $offset = 0;

sub reply {
    my ($id, $body) = @_;
    print defined $id ? "{$body,\"id\":$id}\n" : "{$body}\n";
}

while (my $line = <STDIN>) {
    next if $line =~ /^\s*$/;
    my ($type, $id) = $line =~ /^\{"type":"([^"\\]*)"(?:,"id":(-?\d+|"(?:[^"\\]|\\.)*"))?/;
    if (!defined $type) {
        reply(undef, '"type":"error","message":"not a message"');
    } elsif ($type eq 'hello') {
        reply($id, '"type":"hello","protocol":1,"name":"random-legal-perl",'
                 . '"author":"coexist-ai examples","options":[{"name":"offset",'
                 . '"type":"int","default":0,"min":0,"max":1000000,'
                 . '"help":"added to the game seed"}]');
    } elsif ($type eq 'setoption') {
        my ($name) = $line =~ /"name":"([^"\\]*)"/;
        my ($value) = $line =~ /"value":(\d+)[,}]/;
        if (defined $name && $name eq 'offset' && defined $value) {
            $offset = $value;
            reply($id, '"type":"ok"');
        } else {
            reply($id, '"type":"error","message":"unknown option or bad value"');
        }
    } elsif ($type eq 'newgame') {
        my ($seed) = $line =~ /"seed":(\d+)/;
        srand((($seed // 0) + $offset) % 4294967296);
        reply($id, '"type":"ok"');
    } elsif ($type eq 'move') {
        my ($list) = $line =~ /"legal":\[([^\]]*)\]/;
        my @moves = ($list // '') =~ /"([^"]*)"/g;
        if (@moves) {
            reply($id, '"type":"move","move":"' . $moves[int(rand(@moves))] . '"');
        } else {
            reply($id, '"type":"error","message":"no legal moves given"');
        }
    } elsif ($type eq 'ping') {
        reply($id, '"type":"pong"');
    } elsif ($type eq 'quit') {
        last;
    } else {
        reply($id, '"type":"error","message":"unknown command"');
    }
}
