/*
 * cairo_checked.h - every cairo and fontconfig call of render/ checked for render/lock.h's
 * lock (internal to render/).
 *
 * Included last by each file of render/ that calls cairo (after every header that declares
 * a cairo function: this one includes them all first, so a later include is a no-op). Each
 * function below becomes a macro that asserts, at the call site, that the calling thread
 * holds the lock, then makes the call: the macro's own name is not expanded again inside
 * it, so the call is the real function's. A failed check aborts with the file and line of
 * the call. With NDEBUG the macros are not defined and the calls are plain.
 *
 * The list is every function render/ calls; scripts/check-cairo-calls.sh (`make
 * check-layers`) fails when a file calls one that is not here, or calls cairo without
 * including this header, so a new call cannot slip past the check.
 */
#ifndef CATAN_RENDER_CAIRO_CHECKED_H
#define CATAN_RENDER_CAIRO_CHECKED_H

#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "render/lock.h"

#ifndef NDEBUG
#include <assert.h>

#define RENDER_CAIRO_CHECKED(call) (assert(render_lock_held() && "cairo called without render/lock.h's lock"), call)

#define cairo_arc(...) RENDER_CAIRO_CHECKED(cairo_arc(__VA_ARGS__))
#define cairo_close_path(...) RENDER_CAIRO_CHECKED(cairo_close_path(__VA_ARGS__))
#define cairo_create(...) RENDER_CAIRO_CHECKED(cairo_create(__VA_ARGS__))
#define cairo_curve_to(...) RENDER_CAIRO_CHECKED(cairo_curve_to(__VA_ARGS__))
#define cairo_debug_reset_static_data(...) RENDER_CAIRO_CHECKED(cairo_debug_reset_static_data(__VA_ARGS__))
#define cairo_destroy(...) RENDER_CAIRO_CHECKED(cairo_destroy(__VA_ARGS__))
#define cairo_fill(...) RENDER_CAIRO_CHECKED(cairo_fill(__VA_ARGS__))
#define cairo_fill_preserve(...) RENDER_CAIRO_CHECKED(cairo_fill_preserve(__VA_ARGS__))
#define cairo_font_options_create(...) RENDER_CAIRO_CHECKED(cairo_font_options_create(__VA_ARGS__))
#define cairo_font_options_destroy(...) RENDER_CAIRO_CHECKED(cairo_font_options_destroy(__VA_ARGS__))
#define cairo_font_options_set_antialias(...) RENDER_CAIRO_CHECKED(cairo_font_options_set_antialias(__VA_ARGS__))
#define cairo_font_options_set_hint_metrics(...) RENDER_CAIRO_CHECKED(cairo_font_options_set_hint_metrics(__VA_ARGS__))
#define cairo_font_options_set_hint_style(...) RENDER_CAIRO_CHECKED(cairo_font_options_set_hint_style(__VA_ARGS__))
#define cairo_format_stride_for_width(...) RENDER_CAIRO_CHECKED(cairo_format_stride_for_width(__VA_ARGS__))
#define cairo_get_scaled_font(...) RENDER_CAIRO_CHECKED(cairo_get_scaled_font(__VA_ARGS__))
#define cairo_get_source(...) RENDER_CAIRO_CHECKED(cairo_get_source(__VA_ARGS__))
#define cairo_glyph_free(...) RENDER_CAIRO_CHECKED(cairo_glyph_free(__VA_ARGS__))
#define cairo_image_surface_create_for_data(...) RENDER_CAIRO_CHECKED(cairo_image_surface_create_for_data(__VA_ARGS__))
#define cairo_line_to(...) RENDER_CAIRO_CHECKED(cairo_line_to(__VA_ARGS__))
#define cairo_move_to(...) RENDER_CAIRO_CHECKED(cairo_move_to(__VA_ARGS__))
#define cairo_new_path(...) RENDER_CAIRO_CHECKED(cairo_new_path(__VA_ARGS__))
#define cairo_new_sub_path(...) RENDER_CAIRO_CHECKED(cairo_new_sub_path(__VA_ARGS__))
#define cairo_paint(...) RENDER_CAIRO_CHECKED(cairo_paint(__VA_ARGS__))
#define cairo_pattern_get_rgba(...) RENDER_CAIRO_CHECKED(cairo_pattern_get_rgba(__VA_ARGS__))
#define cairo_rectangle(...) RENDER_CAIRO_CHECKED(cairo_rectangle(__VA_ARGS__))
#define cairo_restore(...) RENDER_CAIRO_CHECKED(cairo_restore(__VA_ARGS__))
#define cairo_save(...) RENDER_CAIRO_CHECKED(cairo_save(__VA_ARGS__))
#define cairo_scale(...) RENDER_CAIRO_CHECKED(cairo_scale(__VA_ARGS__))
#define cairo_scaled_font_destroy(...) RENDER_CAIRO_CHECKED(cairo_scaled_font_destroy(__VA_ARGS__))
#define cairo_scaled_font_glyph_extents(...) RENDER_CAIRO_CHECKED(cairo_scaled_font_glyph_extents(__VA_ARGS__))
#define cairo_scaled_font_reference(...) RENDER_CAIRO_CHECKED(cairo_scaled_font_reference(__VA_ARGS__))
#define cairo_scaled_font_text_to_glyphs(...) RENDER_CAIRO_CHECKED(cairo_scaled_font_text_to_glyphs(__VA_ARGS__))
#define cairo_select_font_face(...) RENDER_CAIRO_CHECKED(cairo_select_font_face(__VA_ARGS__))
#define cairo_set_font_options(...) RENDER_CAIRO_CHECKED(cairo_set_font_options(__VA_ARGS__))
#define cairo_set_font_size(...) RENDER_CAIRO_CHECKED(cairo_set_font_size(__VA_ARGS__))
#define cairo_set_line_cap(...) RENDER_CAIRO_CHECKED(cairo_set_line_cap(__VA_ARGS__))
#define cairo_set_line_join(...) RENDER_CAIRO_CHECKED(cairo_set_line_join(__VA_ARGS__))
#define cairo_set_line_width(...) RENDER_CAIRO_CHECKED(cairo_set_line_width(__VA_ARGS__))
#define cairo_set_scaled_font(...) RENDER_CAIRO_CHECKED(cairo_set_scaled_font(__VA_ARGS__))
#define cairo_set_source_rgb(...) RENDER_CAIRO_CHECKED(cairo_set_source_rgb(__VA_ARGS__))
#define cairo_set_source_rgba(...) RENDER_CAIRO_CHECKED(cairo_set_source_rgba(__VA_ARGS__))
#define cairo_set_tolerance(...) RENDER_CAIRO_CHECKED(cairo_set_tolerance(__VA_ARGS__))
#define cairo_show_glyphs(...) RENDER_CAIRO_CHECKED(cairo_show_glyphs(__VA_ARGS__))
#define cairo_status(...) RENDER_CAIRO_CHECKED(cairo_status(__VA_ARGS__))
#define cairo_stroke(...) RENDER_CAIRO_CHECKED(cairo_stroke(__VA_ARGS__))
#define cairo_stroke_preserve(...) RENDER_CAIRO_CHECKED(cairo_stroke_preserve(__VA_ARGS__))
#define cairo_surface_destroy(...) RENDER_CAIRO_CHECKED(cairo_surface_destroy(__VA_ARGS__))
#define cairo_surface_finish(...) RENDER_CAIRO_CHECKED(cairo_surface_finish(__VA_ARGS__))
#define cairo_surface_status(...) RENDER_CAIRO_CHECKED(cairo_surface_status(__VA_ARGS__))
#define cairo_svg_surface_create_for_stream(...) RENDER_CAIRO_CHECKED(cairo_svg_surface_create_for_stream(__VA_ARGS__))
#define cairo_svg_surface_set_document_unit(...) RENDER_CAIRO_CHECKED(cairo_svg_surface_set_document_unit(__VA_ARGS__))
#define cairo_translate(...) RENDER_CAIRO_CHECKED(cairo_translate(__VA_ARGS__))
#define FcFini(...) RENDER_CAIRO_CHECKED(FcFini(__VA_ARGS__))

#endif
#endif
