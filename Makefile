# SPDX-License-Identifier: LGPL-2.1
#
# lazytrace top-level build. Sources are picked up by directory, so a new
# subcommand (cli/cmd-*.c), library file (libdecode/*.c) or test
# (tests/unit/test-*.c, tests/t/t*.sh) needs no change here.

VERSION		:= 0.1.0
PREFIX		?= /usr/local
DESTDIR		?=
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCDIR		?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
PCDIR		?= $(LIBDIR)/pkgconfig
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions

CC		?= cc
PKG_CONFIG	?= pkg-config
OPT		?= -O2 -g
WERROR		?= -Werror
SAN		?=
CFLAGS		?= $(OPT)
LT_CFLAGS	:= -std=gnu11 -Wall -Wextra $(WERROR) -Wno-unused-parameter \
		   -D_GNU_SOURCE -Ilibdecode/include -Ilibdecode \
		   $(shell $(PKG_CONFIG) --cflags libtracecmd libtraceevent libtracefs 2>/dev/null) \
		   $(SAN)
TRACE_LIBS	:= $(shell $(PKG_CONFIG) --libs libtracecmd libtraceevent libtracefs 2>/dev/null || echo -ltracecmd -ltraceevent -ltracefs)
CURSES_LIBS	:= $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
LDLIBS		:= $(TRACE_LIBS) -lm

B		?= build

# Quiet by default, kernel style; V=1 shows the commands.
ifeq ($(V),1)
Q		:=
say		:= @true
else
Q		:= @
say		:= @printf '  %-7s %s\n'
endif
LIB_SRC		:= $(sort $(wildcard libdecode/*.c))
CLI_SRC		:= $(sort $(wildcard cli/*.c))
TUI_SRC		:= $(sort $(wildcard tui/*.c))
LIB_OBJ		:= $(LIB_SRC:%.c=$(B)/%.o)
LIB_PIC		:= $(LIB_SRC:%.c=$(B)/pic/%.o)
CLI_OBJ		:= $(CLI_SRC:%.c=$(B)/%.o) $(TUI_SRC:%.c=$(B)/%.o)
UNIT_SRC	:= $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN	:= $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
SAMPLE_SRC	:= $(sort $(wildcard libdecode/samples/*.c))
SAMPLE_BIN	:= $(SAMPLE_SRC:libdecode/samples/%.c=$(B)/samples/%)

SONAME		:= liblazytrace.so.0
STATIC_LIB	:= $(B)/liblazytrace.a
SHARED_LIB	:= $(B)/$(SONAME)
BIN		:= lazytrace

DEB_PKGS	:= build-essential pkg-config libtraceevent-dev libtracefs-dev \
		   libtracecmd-dev trace-cmd libncurses-dev libcmocka-dev \
		   xz-utils tmux python3 man-db git

# What the stock-kernel VM test needs on top (qemu, the guest's tools).
VM_DEB_PKGS	:= qemu-system-x86 qemu-system-arm busybox-static rt-tests \
		   cpio binutils

all: $(BIN) $(SHARED_LIB) $(SAMPLE_BIN)

$(B)/%.o: %.c $(wildcard libdecode/include/*.h libdecode/*.h cli/*.h tui/*.h)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -c -o $@ $<

$(B)/pic/%.o: %.c $(wildcard libdecode/include/*.h libdecode/*.h)
	@mkdir -p $(dir $@)
	$(say) CC-PIC $<
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -fPIC -c -o $@ $<

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(say) AR $@
	$(Q)ar rcs $@ $^

$(SHARED_LIB): $(LIB_PIC)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(SAN) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)
	$(Q)ln -sf $(SONAME) $(B)/liblazytrace.so

$(BIN): $(CLI_OBJ) $(STATIC_LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(SAN) -o $@ $(CLI_OBJ) $(STATIC_LIB) $(LDLIBS) $(CURSES_LIBS)

$(B)/samples/%: libdecode/samples/%.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS) -lcmocka

check: all $(UNIT_BIN)
	@LAZYTRACE=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(B) sh tests/run.sh $(UNIT_BIN)

# The whole suite again, built with AddressSanitizer and UBSan.
asan:
	ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:fast_unwind_on_malloc=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) B=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		BIN=build-asan/lazytrace check

valgrind: all $(UNIT_BIN)
	@LAZYTRACE_WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --child-silent-after-fork=yes \
		--suppressions=$(CURDIR)/tests/valgrind.supp" \
		LAZYTRACE=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(B) sh tests/run.sh $(UNIT_BIN)

# libFuzzer harnesses (clang; not part of check): tests/fuzz/run.sh.
FUZZ_SECONDS	?= 60
fuzz:
	sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ)

# CPU, wall time and memory against trace-cmd and a bare libtracecmd
# iteration (bench/README.md); BENCH_RECORD / BENCH_TRACE pick the large
# trace. Fails when a goal is missed.
bench: all
	@LAZYTRACE=$(CURDIR)/$(BIN) sh bench/bench.sh; a=$$?; \
	LAZYTRACE=$(CURDIR)/$(BIN) sh bench/bench-tui.sh $(BENCH_TUI_TRACE); \
	b=$$?; [ $$a = 0 ] && [ $$b = 0 ]

demo: all
	sh tests/demo.sh ./$(BIN)

deps:
	@missing=$$(for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "deps: run as root: apt-get install -y $$missing"; exit 1; fi

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
		$(DESTDIR)$(PCDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/lazytrace
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/liblazytrace.so
	install -m 644 libdecode/include/lazytrace.h $(DESTDIR)$(INCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' \
		libdecode/lazytrace.pc.in > $(DESTDIR)$(PCDIR)/lazytrace.pc
	for m in $(wildcard docs/man/*.1); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man1/; done
	for m in $(wildcard docs/man/*.3); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man3/; done
	for c in $(wildcard docs/completion/*); do install -m 644 $$c $(DESTDIR)$(BASHCOMPDIR)/; done

patches-check:
	$(MAKE) -C patches check

vm-test: all
	$(MAKE) -C patches vm-test

vm-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(VM_DEB_PKGS)"

# Debian's stock 7.x kernel under qemu: lazytrace record, live, tui in it.
vm-test-stock: all vm-deps
	BUILD=$(CURDIR)/$(B) LAZYTRACE=$(CURDIR)/$(BIN) tests/vm/vm-test-stock.sh

# Remake the recordings of tests/data/stock (see its README.md).
vm-record-stock: vm-deps
	BUILD=$(CURDIR)/$(B) tests/vm/record-stock.sh $(CURDIR)/$(B)/stock-recordings

clean:
	rm -rf build build-asan $(BIN)

.PHONY: all check asan valgrind fuzz bench demo deps install patches-check \
	vm-test vm-deps vm-test-stock vm-record-stock clean
.DELETE_ON_ERROR:
