# SPDX-License-Identifier: LGPL-2.1
#
# lazytrace top-level build. Sources are picked up by directory, so a new
# subcommand (cli/cmd-*.c), library file (libdecode/LAYER/*.c) or test
# (tests/unit/test-*.c, tests/t/t*.sh) needs no change here; a new
# library layer (a libdecode/ subdirectory) goes in LIB_LAYERS.

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
		   -D_GNU_SOURCE -Ilibdecode/include \
		   $(shell $(PKG_CONFIG) --cflags libtracecmd libtraceevent libtracefs 2>/dev/null) \
		   $(SAN)
# The library's own objects: its private headers, and nothing exported
# but what lazytrace.h declares (it sets default visibility around its
# declarations; libdecode/liblazytrace.map versions them).
# No -Ilibdecode: a private header is included by its path relative to
# the includer (docs/design.md), so a layer's reach shows in its #includes.
# Calls between the library's own exported functions (lt_table_next() from
# lt_table_fill(), lt_reader_next() from the run) bind directly, not
# through the PLT: nothing may interpose a symbol of liblazytrace.
LIB_CFLAGS	:= -fvisibility=hidden -fno-semantic-interposition
LIB_MAP		:= libdecode/liblazytrace.map
TRACE_LIBS	:= $(shell $(PKG_CONFIG) --libs libtracecmd libtraceevent libtracefs 2>/dev/null || echo -ltracecmd -ltraceevent -ltracefs)
CURSES_LIBS	:= $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
# export --sqlite: the command links SQLite, the library does not.
SQLITE_LIBS	:= $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null || echo -lsqlite3)
LDLIBS		:= $(TRACE_LIBS) -lzstd -lz -llzma -lm

B		?= build

# Quiet by default, kernel style; V=1 shows the commands.
ifeq ($(V),1)
Q		:=
say		:= @true
else
Q		:= @
say		:= @printf '  %-7s %s\n'
endif
# The library's layers, bottom up (docs/design.md).
LIB_LAYERS	:= print read analysis tracefs run
LIB_SRC		:= $(sort $(foreach d,$(LIB_LAYERS),$(wildcard libdecode/$(d)/*.c)))
LIB_HDR		:= $(wildcard libdecode/include/*.h libdecode/*.h \
			   $(LIB_LAYERS:%=libdecode/%/*.h))
CLI_SRC		:= $(sort $(wildcard cli/*.c))
TUI_SRC		:= $(sort $(wildcard tui/*.c))
COMMON_SRC	:= $(sort $(wildcard common/*.c))
LIB_OBJ		:= $(LIB_SRC:%.c=$(B)/%.o)
LIB_PIC		:= $(LIB_SRC:%.c=$(B)/pic/%.o)
CLI_OBJ		:= $(CLI_SRC:%.c=$(B)/%.o) $(TUI_SRC:%.c=$(B)/%.o) \
		   $(COMMON_SRC:%.c=$(B)/%.o)
UNIT_SRC	:= $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN	:= $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
SAMPLE_SRC	:= $(sort $(wildcard libdecode/samples/*.c))
SAMPLE_BIN	:= $(SAMPLE_SRC:libdecode/samples/%.c=$(B)/samples/%)

SONAME		:= liblazytrace.so.0
STATIC_LIB	:= $(B)/liblazytrace.a
SHARED_LIB	:= $(B)/$(SONAME)
BIN		:= lazytrace

# The KernelShark plugin (kshark/) and its test in a real window (t6000):
# KernelShark's plugin headers and what they include (json-c, GL), and an
# X server with a screenshot and a mouse.
# The Python module (python/): Debian's python3 and cffi; pytest runs its
# tests (t8000); NumPy, pandas and matplotlib are optional to the module,
# used by its tests and examples.
PY_DEB_PKGS	:= python3-cffi python3-pytest python3-numpy python3-pandas \
		   python3-matplotlib
KSHARK_DEB_PKGS	:= kernelshark libkshark-dev libjson-c-dev libgl-dev \
		   libglu1-mesa-dev xvfb x11-apps imagemagick xdotool

DEB_PKGS	:= build-essential pkg-config libtraceevent-dev libtracefs-dev \
		   libtracecmd-dev trace-cmd libncurses-dev libcmocka-dev \
		   libzstd-dev zlib1g-dev liblzma-dev xz-utils zstd tmux python3 man-db git strace \
		   libsqlite3-dev sqlite3 \
		   $(PY_DEB_PKGS) \
		   $(KSHARK_DEB_PKGS)

PYTHON		?= /usr/bin/python3
# Debian's layout: /usr/lib/python3/dist-packages for PREFIX=/usr, else
# PREFIX/lib/python3.X/dist-packages (/usr/local's is on sys.path).
PYTHONDIR	?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PYVER)/dist-packages)
PYVER		= $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')

# What the stock-kernel VM test needs on top (qemu, the guest's tools).
VM_DEB_PKGS	:= qemu-system-x86 qemu-system-arm busybox-static rt-tests \
		   cpio binutils

# The KernelShark plugin (kshark/), built where libkshark-dev is
# installed and skipped quietly elsewhere: it is optional.
KSHARK_PC	:= $(shell $(PKG_CONFIG) --exists libkshark json-c 2>/dev/null && echo yes)
KSHARK_PLUGIN	:= $(if $(KSHARK_PC),$(B)/plugin-lazytrace.so)
KSHARK_INC	:= $(if $(KSHARK_PC),$(shell $(PKG_CONFIG) --variable=includedir libkshark))
# Their headers as system headers: -Werror holds for our code only.
KSHARK_CFLAGS	:= -isystem $(KSHARK_INC) $(subst -I,-isystem ,$(if $(KSHARK_PC),$(shell $(PKG_CONFIG) --cflags json-c)))
KSHARK_CXXFLAGS	:= -std=gnu++17 -Wall -Wextra $(WERROR) -Wno-unused-parameter \
		   -D_GNU_SOURCE -Ilibdecode/include $(KSHARK_CFLAGS) $(SAN)
KSHARK_OBJ	:= $(B)/kshark/lazytrace-kshark.o $(B)/kshark/LazytraceDraw.o
# Where KernelShark looks for a plugin given by name (-p lazytrace).
KSHARK_DIR	?= $(if $(KSHARK_PC),$(shell $(PKG_CONFIG) --variable=libdir libkshark)/kernelshark/plugins)
CXX		?= c++

all: $(BIN) $(SHARED_LIB) $(SAMPLE_BIN) $(KSHARK_PLUGIN)

$(B)/%.o: %.c $(LIB_HDR) $(wildcard cli/*.h tui/*.h common/*.h)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -c -o $@ $<

$(B)/libdecode/%.o: libdecode/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(B)/pic/%.o: %.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(say) CC-PIC $<
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) $(LIB_CFLAGS) -fPIC -c -o $@ $<

$(STATIC_LIB): $(LIB_OBJ)
	@rm -f $@
	$(say) AR $@
	$(Q)ar rcs $@ $^

$(SHARED_LIB): $(LIB_PIC) $(LIB_MAP)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(SAN) -shared -Wl,-soname,$(SONAME) \
		-Wl,--version-script=$(LIB_MAP) -o $@ $(LIB_PIC) $(LDLIBS)
	$(Q)ln -sf $(SONAME) $(B)/liblazytrace.so

$(BIN): $(CLI_OBJ) $(STATIC_LIB)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(SAN) -o $@ $(CLI_OBJ) $(STATIC_LIB) $(LDLIBS) $(CURSES_LIBS) $(SQLITE_LIBS)

$(B)/kshark/%.o: kshark/%.c kshark/lazytrace-kshark.h libdecode/include/lazytrace.h
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) $(KSHARK_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(B)/kshark/%.o: kshark/%.cpp kshark/lazytrace-kshark.h libdecode/include/lazytrace.h
	@mkdir -p $(dir $@)
	$(say) CXX $<
	$(Q)$(CXX) $(CFLAGS) $(KSHARK_CXXFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# liblazytrace goes in whole (its PIC objects), so that KernelShark needs
# nothing of ours but the plugin; KernelShark's own symbols come from
# the program that loads it.
$(KSHARK_PLUGIN): $(KSHARK_OBJ) $(LIB_PIC) kshark/plugin.map
	$(say) LD $@
	$(Q)$(CXX) $(CFLAGS) $(SAN) -shared -Wl,--version-script=kshark/plugin.map \
		-o $@ $(KSHARK_OBJ) $(LIB_PIC) $(LDLIBS)

kshark: $(KSHARK_PLUGIN)

# The samples use the shared library, as a program outside the tree would:
# what they need must be exported.
$(B)/samples/%: libdecode/samples/%.c $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -o $@ $< -L$(B) -llazytrace \
		-Wl,-rpath,$(abspath $(B)) $(LDLIBS)

# A unit test of the CLI's helpers links their object too.
$(B)/tests/test-cli-util: $(B)/cli/util.o $(B)/common/common.o

$(B)/tests/%: tests/unit/%.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(CFLAGS) $(LT_CFLAGS) -o $@ $< $(filter %.o,$^) $(STATIC_LIB) $(LDLIBS) -lcmocka

check: all $(UNIT_BIN)
	@LAZYTRACE=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(B) sh tests/run.sh $(UNIT_BIN)

# The whole suite again, built with AddressSanitizer and UBSan. Not
# fast_unwind_on_malloc=0: the slow unwinder on every malloc made the run
# five to ten times slower (t0008 127 s against 36 s; frame pointers are on).
asan:
	ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) B=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		BIN=build-asan/lazytrace check

valgrind: all $(UNIT_BIN)
	@LAZYTRACE_WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --child-silent-after-fork=yes \
		--suppressions=$(CURDIR)/tests/valgrind.supp" \
		LAZYTRACE=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(B) sh tests/run.sh $(UNIT_BIN)

# libFuzzer harnesses (clang): tests/fuzz/run.sh. make check runs each for
# a few seconds when clang is installed (t7005); make fuzz for longer.
FUZZ_SECONDS	?= 60
FUZZ_PKGS	:= clang libclang-rt-14-dev
fuzz: fuzz-deps
	sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ)

fuzz-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(FUZZ_PKGS)"

# CPU, wall time and memory against trace-cmd and a bare libtracecmd
# iteration (bench/README.md); BENCH_RECORD / BENCH_TRACE pick the large
# trace. Fails when a goal is missed.
bench: all
	@LAZYTRACE=$(CURDIR)/$(BIN) sh bench/bench.sh; a=$$?; \
	LAZYTRACE=$(CURDIR)/$(BIN) sh bench/bench-tui.sh $(BENCH_TUI_TRACE); \
	b=$$?; [ $$a = 0 ] && [ $$b = 0 ]

demo: all
	sh tests/demo.sh ./$(BIN)

# The library's kernel-doc, checked by the kernel's own scripts/kernel-doc
# from Debian's linux-source-6.12: the tree `make -C patches checkpatch`
# unpacks if it is there (CI), else that one file out of the tarball.
KERNEL_TARBALL	?= /usr/src/linux-source-6.12.tar.xz
KERNEL_DOC	?= $(firstword $(wildcard patches/build/linux-6.12/scripts/kernel-doc) \
			   $(B)/kernel-doc)

$(B)/kernel-doc:
	@mkdir -p $(B)
	@[ -f $(KERNEL_TARBALL) ] || { echo "doc-check: no $(KERNEL_TARBALL):" \
		"apt-get install linux-source-6.12 (make -C patches checkpatch does)"; exit 1; }
	$(say) TAR $@
	$(Q)tar -xJf $(KERNEL_TARBALL) -O linux-source-6.12/scripts/kernel-doc > $@.tmp
	$(Q)mv $@.tmp $@

# -none: the structure (every parameter, member and value described, no
# stale ones); KDOC_FLAGS=-Wall also wants every Return: section (clean
# today).
KDOC_FLAGS	?=
doc-check: $(KERNEL_DOC)
	$(say) KDOC libdecode
	$(Q)out=$$(perl $(KERNEL_DOC) -none $(KDOC_FLAGS) \
		libdecode/include/lazytrace.h $(LIB_SRC) 2>&1); \
		[ -z "$$out" ] || { echo "$$out"; exit 1; }

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
	$(if $(KSHARK_PLUGIN),install -d $(DESTDIR)$(KSHARK_DIR) && \
		install -m 644 $(KSHARK_PLUGIN) $(DESTDIR)$(KSHARK_DIR)/)
	install -d $(DESTDIR)$(PYTHONDIR)/lazytrace
	install -m 644 python/lazytrace/__init__.py python/lazytrace/_lib.py \
		$(DESTDIR)$(PYTHONDIR)/lazytrace/
	printf '# written by make install\nLIBDIR = "%s"\n' '$(LIBDIR)' \
		> $(DESTDIR)$(PYTHONDIR)/lazytrace/_config.py

patches-check:
	$(MAKE) -C patches check

vm-test: all
	$(MAKE) -C patches vm-test

vm-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(VM_DEB_PKGS)"

# Debian's stock 7.x kernel under qemu: lazytrace record, live, tui in it.
vm-test-stock: all vm-deps
	BUILD=$(CURDIR)/$(B) LAZYTRACE=$(CURDIR)/$(BIN) tests/vm/vm-test-stock.sh

# Remake the recordings of tests/data/stock (see its README.md);
# VM_ARCHS="s390x" (or "amd64 arm64 s390x") for the big-endian one.
VM_ARCHS	?= amd64 arm64
vm-record-stock: VM_DEB_PKGS += $(if $(filter s390x,$(VM_ARCHS)),qemu-system-misc)
vm-record-stock: vm-deps
	BUILD=$(CURDIR)/$(B) tests/vm/record-stock.sh $(CURDIR)/$(B)/stock-recordings $(VM_ARCHS)

# A 10 GB trace.dat and one of 1 GB with the same tasks (bench/mk-big-dat.py):
# stats' memory on both, the TUI's first screen on the big one
bench-scale: all
	LAZYTRACE=$(CURDIR)/$(BIN) sh bench/bench-scale.sh

# bench/data/stock72-big.dat: 750k events recorded in Debian's stock 7.2
# (with its whole kallsyms), which make bench then measures
bench-record-stock: all vm-deps
	BUILD=$(CURDIR)/$(B) LAZYTRACE=$(CURDIR)/$(BIN) bench/record-stock.sh

# bench/data/stock72-big-s390x.dat: the same in Debian's s390x 7.2, by
# trace-cmd (big-endian)
bench-record-stock-s390x: VM_DEB_PKGS += qemu-system-misc
bench-record-stock-s390x: all vm-deps
	BUILD=$(CURDIR)/$(B) LAZYTRACE=$(CURDIR)/$(BIN) bench/record-stock.sh s390x

# The kernel series cross-built for s390x and booted under qemu-system-s390x
# (patches/README.md): its cross compiler and qemu, on top of vm-deps'.
vm-test-s390: VM_DEB_PKGS += gcc-s390x-linux-gnu qemu-system-misc
vm-test-s390: all vm-deps
	$(MAKE) -C patches vm-test-s390

clean:
	rm -rf build build-asan $(BIN)

.PHONY: all kshark check asan valgrind fuzz fuzz-deps bench demo doc-check deps install \
	patches-check \
	vm-test vm-deps vm-test-stock vm-record-stock bench-record-stock bench-record-stock-s390x bench-scale vm-test-s390 clean
.DELETE_ON_ERROR:
