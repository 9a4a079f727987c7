# SPDX-License-Identifier: LGPL-2.1
"""liblazytrace through cffi's ABI mode: declarations and loading.

Only the run and table interface of lazytrace.h is declared (plus two
reader getters): every value crosses as a plain C type through a getter,
so no struct layout is copied here and nothing needs compiling.
"""

import os

import cffi

SONAME = "liblazytrace.so.0"

CDEF = """
struct lt_run;
struct lt_table;
struct lt_reader;

struct lt_run *lt_run_new(void);
int lt_run_set(struct lt_run *run, const char *option, const char *value);
int lt_run_open(struct lt_run *run);
int lt_run_interval(struct lt_run *run, uint64_t ns);
const char *lt_run_error(const struct lt_run *run);
int lt_run_status(const struct lt_run *run);
uint64_t lt_run_truncated(const struct lt_run *run);
struct lt_reader *lt_run_reader(struct lt_run *run);
void lt_run_free(struct lt_run *run);
const char *const *lt_run_table_names(void);
struct lt_table *lt_run_table(struct lt_run *run, const char *name);

const char *lt_col_type_name(int type);
const char *lt_table_name(const struct lt_table *t);
_Bool lt_table_one_row(const struct lt_table *t);
unsigned int lt_table_nr_columns(const struct lt_table *t);
const char *lt_table_column_name(const struct lt_table *t, unsigned int col);
int lt_table_column_type(const struct lt_table *t, unsigned int col);
const char *lt_table_column_unit(const struct lt_table *t, unsigned int col);
const char *lt_table_column_doc(const struct lt_table *t, unsigned int col);
int lt_table_next(struct lt_table *t);
_Bool lt_table_null(const struct lt_table *t, unsigned int col);
int64_t lt_table_int(const struct lt_table *t, unsigned int col);
uint64_t lt_table_uint(const struct lt_table *t, unsigned int col);
double lt_table_double(const struct lt_table *t, unsigned int col);
const char *lt_table_string(const struct lt_table *t, unsigned int col);
int lt_table_fill(struct lt_table *t, const unsigned int *cols,
                  unsigned int nr_cols, unsigned int max_rows, void *cells,
                  unsigned char *nulls, char *strs, size_t strs_len,
                  size_t *strs_used);
int lt_table_event_field(const struct lt_table *t, const char *field,
                         long long *val);
int lt_time_parse(const char *text, uint64_t *ns);

const char *lt_reader_kernel(const struct lt_reader *r);
"""

# enum lt_run_status
RUN_OK, RUN_USAGE, RUN_BAD_INPUT, RUN_NOMEM = range(4)
# enum lt_col_type
(COL_INT, COL_UINT, COL_DOUBLE, COL_STRING, COL_BOOL, COL_TIMESTAMP,
 COL_DURATION) = range(7)

ffi = cffi.FFI()
ffi.cdef(CDEF)


def _candidates():
    """Where the library may be, first match wins."""
    env = os.environ.get("LAZYTRACE_LIB")
    if env:
        # an explicit choice: no silent fallback to another library
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    # the source tree: python/lazytrace/ next to build/
    top = os.path.dirname(os.path.dirname(here))
    if os.path.isfile(os.path.join(top, "libdecode", "include",
                                   "lazytrace.h")):
        out.append(os.path.join(top, "build", SONAME))
    try:
        from . import _config
        if _config.LIBDIR:
            out.append(os.path.join(_config.LIBDIR, SONAME))
    except ImportError:
        pass
    out.append(SONAME)		# the dynamic linker's own search
    return out


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("lazytrace: cannot load %s; tried: %s. Build it "
                      "(make) or set LAZYTRACE_LIB to its path."
                      % (SONAME, "; ".join(tried)))


lib, path = _load()
