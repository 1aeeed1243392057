// SPDX-License-Identifier: MIT
/*
 * ig_plot_write: picks SVG or PNG by the extension, opens the file itself
 * (so that a failure reports the errno of open or write, not just cairo's
 * "error while writing"), draws the figure and removes a partial file.
 * Text goes through cairo's "toy" font API: a sans-serif face that
 * fontconfig picks (DejaVu Sans on Debian); SVG files hold it as glyph
 * outlines, so they look the same without the font installed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "plot.h"
#include "plot_int.h"

struct sink {
	FILE *f;
	int err; /* errno of the first failed write */
};

/* The file name, not only the path, must have a stem: "dir/.png" no. */
static bool has_ext(const char *path, const char *ext)
{
	const char *base = strrchr(path, '/');
	size_t n, e = strlen(ext);

	base = base ? base + 1 : path;
	n = strlen(base);
	return n > e && !strcasecmp(base + n - e, ext);
}

int ig_plot_format(const char *path, char *err, size_t errlen)
{
	if (path && has_ext(path, ".svg"))
		return IG_PLOT_SVG;
	if (path && has_ext(path, ".png"))
		return IG_PLOT_PNG;
	snprintf(err, errlen, "--plot: '%s' must end in .svg or .png",
		 path ? path : "(null)");
	return -EINVAL;
}

static cairo_status_t sink_write(void *closure, const unsigned char *data,
				 unsigned int len)
{
	struct sink *s = closure;

	if (s->err)
		return CAIRO_STATUS_WRITE_ERROR;
	errno = 0;
	if (fwrite(data, 1, len, s->f) != len) {
		s->err = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

/* Draws f on surf, then finishes it; returns cairo's status. */
static cairo_status_t render(cairo_surface_t *surf, const struct ig_plot_fig *f)
{
	cairo_status_t st;
	cairo_t *cr = cairo_create(surf);

	ig_plot_draw(cr, f);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surf);
	return st;
}

static cairo_status_t write_svg(struct sink *s, const struct ig_plot_fig *f)
{
	cairo_surface_t *surf;
	cairo_status_t st;

	surf = cairo_svg_surface_create_for_stream(sink_write, s, IG_PLOT_WIDTH,
						   IG_PLOT_HEIGHT);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 15, 10)
	cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
#endif
	st = render(surf, f);
	cairo_surface_finish(surf); /* the SVG is written here */
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surf);
	cairo_surface_destroy(surf);
	return st;
}

static cairo_status_t write_png(struct sink *s, const struct ig_plot_fig *f)
{
	cairo_surface_t *surf;
	cairo_status_t st;

	surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, IG_PLOT_WIDTH,
					  IG_PLOT_HEIGHT);
	st = render(surf, f);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png_stream(surf, sink_write, s);
	cairo_surface_destroy(surf);
	return st;
}

#if defined(__SANITIZE_ADDRESS__)
#define PLOT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLOT_ASAN 1
#endif
#endif

/*
 * cairo's text API keeps fonts in caches of its own and of fontconfig for
 * the life of the process, and LeakSanitizer reports part of fontconfig's
 * as leaked.  ASan builds drop both after each figure (no cairo object is
 * alive then; the next figure loads them again), so that the sanitizer
 * runs stay clean; other builds keep them.
 */
void ig_plot_release_caches(void)
{
#ifdef PLOT_ASAN
	cairo_debug_reset_static_data();
	FcFini();
#endif
}

/* Draws into the open file; 0 or -errno with err filled. */
static int plot_out(struct sink *s, int fmt, const char *path,
		    const struct ig_plot_fig *f, char *err, size_t errlen)
{
	cairo_status_t st;

	st = fmt == IG_PLOT_SVG ? write_svg(s, f) : write_png(s, f);
	if (st == CAIRO_STATUS_SUCCESS && fflush(s->f))
		s->err = errno;
	if (st == CAIRO_STATUS_SUCCESS && !s->err)
		return 0;
	if (s->err || st == CAIRO_STATUS_WRITE_ERROR) {
		snprintf(err, errlen, "--plot: writing '%s' failed: %s", path,
			 strerror(s->err ? s->err : EIO));
		return -(s->err ? s->err : EIO);
	}
	snprintf(err, errlen, "--plot: drawing '%s' failed: %s", path,
		 cairo_status_to_string(st));
	return st == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO;
}

static int plot_file(const char *path, int fmt, const struct ig_plot_fig *f,
		     char *err, size_t errlen)
{
	struct sink s = { .f = fopen(path, "wb") };
	int ret;

	if (!s.f) {
		ret = -errno;
		snprintf(err, errlen, "--plot: cannot create '%s': %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = plot_out(&s, fmt, path, f, err, errlen);
	if (fclose(s.f) && !ret) {
		ret = -errno;
		snprintf(err, errlen, "--plot: closing '%s' failed: %s", path,
			 strerror(-ret));
	}
	if (ret)
		unlink(path);
	return ret;
}

int ig_plot_write(const char *path, const struct ig_result *res, size_t n,
		  char *err, size_t errlen)
{
	struct ig_plot_fig f;
	int fmt, ret;

	fmt = ig_plot_format(path, err, errlen);
	if (fmt < 0)
		return fmt;
	if (!res && n) {
		snprintf(err, errlen, "--plot: %zu results but no array", n);
		return -EINVAL;
	}
	ret = ig_plot_collect(&f, res, n);
	if (ret)
		snprintf(err, errlen, "--plot: no memory for %zu results", n);
	else
		ret = plot_file(path, fmt, &f, err, errlen);
	ig_plot_fig_free(&f);
	ig_plot_release_caches();
	return ret;
}
