// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin-lazytrace: the drawing half. For each task graph and each CPU
 * graph KernelShark draws, the spans of the analysis (a band along the
 * top of the graph), the hog episodes (a frame around the graph's
 * height) and the upgrade markers (a triangle, by source).
 */
#include <cmath>
#include <cstdlib>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-model.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"

#include <lazytrace.h>

#include "lazytrace-kshark.h"

using namespace KsPlot;

/* The TUI's legend (tui/draw.c): lazy yellow, eager red; hogs magenta. */
static const Color span_color[LTK_SPAN_MAX] = {
	Color(255, 204, 0),	/* lazy */
	Color(220, 0, 0),	/* eager */
	Color(204, 0, 204),	/* hog episode */
};

/* Markers by enum lt_upgrade_source: tick, hrtick, timer, irq, direct. */
static const Color source_color[LT_UPG_SOURCE_MAX] = {
	Color(0, 0, 230),	/* tick */
	Color(0, 160, 160),	/* hrtick */
	Color(0, 140, 0),	/* timer */
	Color(140, 70, 0),	/* irq */
	Color(90, 90, 90),	/* direct */
};

/*
 * An upgrade marker. A double click selects the entry that showed the
 * upgrade (marker A): the information line then shows what the plugin
 * adds to that entry's info (latency, source, call site).
 */
class LtkMarker : public Triangle {
public:
	kshark_trace_histo *_histo;
	int64_t _ts;
	int _cpu;
	int _sd;

	double distance(int x, int y) const override
	{
		const ksplot_point *a = point(0), *b = point(1), *c = point(2);
		double cx = (a->x + b->x + c->x) / 3.;
		double cy = (a->y + b->y + c->y) / 3.;

		return std::hypot(x - cx, y - cy);
	}

private:
	void _doubleClick() const override
	{
		kshark_entry **d = _histo->data;
		size_t lo = 0, hi = _histo->data_size;

		if (!ltk_gui_ptr() || !d)
			return;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (d[mid]->ts < _ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < _histo->data_size && d[lo]->ts == _ts; lo++)
			if (d[lo]->cpu == _cpu && d[lo]->stream_id == _sd) {
				markEntryA(ltk_gui_ptr(), d[lo]);
				return;
			}
	}
};

/* The pixel column of time @ts, clipped to the graph. */
static int ts_x(const Graph *g, const kshark_trace_histo *h, int64_t ts)
{
	int64_t b;

	if (ts <= h->min)
		b = 0;
	else if (ts >= h->max)
		b = h->n_bins - 1;
	else
		b = (ts - h->min) / h->bin_size;
	if (b >= h->n_bins)
		b = h->n_bins - 1;
	return g->bin(b)._base.x();
}

static void draw_span(KsCppArgV *argv, const ltk_span *s, int x0, int x1)
{
	const Graph *g = argv->_graph;
	int y0 = g->base(), h = g->height();
	Rectangle *r = new Rectangle;

	if (s->kind == LTK_SPAN_EPISODE) {
		r->setFill(false);
		r->setPoint(0, x0, y0 - h);
		r->setPoint(1, x0, y0);
		r->setPoint(2, x1, y0);
		r->setPoint(3, x1, y0 - h);
		r->_size = 2;
	} else {
		r->setFill(true);
		r->setPoint(0, x0, y0 - h);
		r->setPoint(1, x0, y0 - h * 6 / 10);
		r->setPoint(2, x1 + 1, y0 - h * 6 / 10);
		r->setPoint(3, x1 + 1, y0 - h);
		r->_size = -1;
	}
	r->_color = span_color[s->kind];
	argv->_shapes->push_front(r);
}

static void draw_marker(KsCppArgV *argv, const ltk_marker *m, int x, int sd)
{
	const Graph *g = argv->_graph;
	int y0 = g->base(), h = g->height();
	LtkMarker *t = new LtkMarker;

	t->_histo = argv->_histo;
	t->_ts = m->ts;
	t->_cpu = m->cpu;
	t->_sd = sd;
	t->setFill(true);
	t->setPoint(0, x - 5, y0 - h);
	t->setPoint(1, x + 5, y0 - h);
	t->setPoint(2, x, y0 - h * 4 / 10);
	t->_color = source_color[(unsigned int)m->source < LT_UPG_SOURCE_MAX ?
				 m->source : LT_UPG_DIRECT];
	t->_size = -1;
	argv->_shapes->push_front(t);
}

static bool applies(int draw_action, int val, int cpu, int pid)
{
	if (draw_action & KSHARK_CPU_DRAW)
		return cpu == val;
	return pid == val && pid > 0;
}

/*
 * Shapes pushed first are drawn last: markers go in first so that they
 * stay on top of the spans. One shape per pixel column and kind is
 * enough; more would only slow a zoomed-out view down.
 */
__attribute__((visibility("default")))
void ltk_draw(kshark_cpp_argv *argv_c, int sd, int val, int draw_action)
{
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	kshark_trace_histo *h = argv->_histo;
	ltk_ctx *c = ltk_get_ctx(sd);
	int last_x[LTK_SPAN_MAX] = { -1, -1, -1 }, last_m = -1;
	size_t n[3] = { 0, 0, 0 };

	if (!c || !h || !argv->_graph || h->n_bins <= 0 ||
	    !(draw_action & (KSHARK_CPU_DRAW | KSHARK_TASK_DRAW)))
		return;

	for (size_t i = 0; i < c->nr_markers; i++) {
		const ltk_marker *m = &c->markers[i];
		int x;

		if (m->ts < h->min || m->ts > h->max ||
		    !applies(draw_action, val, m->cpu, m->pid))
			continue;
		x = ts_x(argv->_graph, h, m->ts);
		if (x == last_m)
			continue;
		last_m = x;
		draw_marker(argv, m, x, sd);
		n[1]++;
	}

	for (size_t i = 0; i < c->nr_spans; i++) {
		const ltk_span *s = &c->spans[i];
		int x0, x1;

		if (s->end < h->min || s->start > h->max ||
		    !applies(draw_action, val, s->cpu, s->pid))
			continue;
		x0 = ts_x(argv->_graph, h, s->start);
		x1 = ts_x(argv->_graph, h, s->end);
		if (s->kind != LTK_SPAN_EPISODE && x1 <= last_x[s->kind])
			continue;
		last_x[s->kind] = x1;
		draw_span(argv, s, x0, x1);
		n[s->kind == LTK_SPAN_EPISODE ? 2 : 0]++;
	}
	ltk_log_draw(c, draw_action, val, n);
}
