#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An all-events recording of this host (root, tracefs): one instance
# buffer, every event enabled, about 0.6 s of mixed load, then the three
# files of tests/data/README.md from that buffer: OUT/allev.txt and
# allev.lat.txt (the kernel's text, latency-format off and on) and
# allev.dat (trace-cmd extract -B, which also removes the instance).
set -e
INST=lt-events-allev-$$
T=/sys/kernel/tracing
I=$T/instances/$INST
OUT=${OUT:-.}
SECS=${SECS:-0.5}
mkdir $I
cleanup() {
	[ -d $I ] || return 0
	echo 0 > $I/tracing_on
	echo 0 > $I/events/enable
	rmdir $I
}
trap cleanup EXIT
echo 100000 > $I/buffer_size_kb
echo 1 > $I/events/enable
echo 1 > $I/tracing_on
# mixed load: fork/exec, file I/O, pipes, sleep, loopback network
( for i in 1 2 3 4 5 6 7 8; do /bin/true; ls / > /dev/null; done ) &
( dd if=/dev/zero of=$OUT/ddtmp bs=64k count=16 conv=fsync 2>/dev/null; cat $OUT/ddtmp > /dev/null; rm -f $OUT/ddtmp ) &
( seq 1 20000 | cat | wc -l > /dev/null ) &
( sleep 0.05; sleep 0.02 ) &
( python3 -c '
import socket,threading
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(1)
p=s.getsockname()[1]
def srv():
    c,_=s.accept(); d=c.recv(65536)
    while d: c.sendall(d); d=c.recv(65536)
    c.close()
t=threading.Thread(target=srv); t.start()
c=socket.create_connection(("127.0.0.1",p))
for i in range(50): c.sendall(b"x"*1000); c.recv(65536)
c.close(); t.join()
' ) &
sleep $SECS
wait
echo 0 > $I/tracing_on
echo 0 > $I/options/latency-format
cat $I/trace > $OUT/allev.txt
echo 1 > $I/options/latency-format
cat $I/trace > $OUT/allev.lat.txt
echo 0 > $I/options/latency-format
trace-cmd extract --compression zstd -B $INST -o $OUT/allev.dat > $OUT/extract.log 2>&1 ||
	trace-cmd extract -B $INST -o $OUT/allev.dat >> $OUT/extract.log 2>&1
