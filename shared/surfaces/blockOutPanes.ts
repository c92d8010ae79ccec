/**
 * Block-out regions (guides §2 blockOutUI): the page is dimmed around a highlighted element by four panes
 * that leave a hole over it. This file is the geometry and the reading of the step attribute; the overlay
 * measures the elements and draws the panes.
 */
import { BLOCK_OUT_DEFAULTS } from '../constants';

/** A rectangle in viewport pixels, edges as a DOMRect names them (a DOMRect fits this shape). */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A pane as it is drawn: its top-left corner and size, in viewport pixels. */
export interface Pane {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A step's `attributes.blockOutUI` once read, every field with its default. */
export interface BlockOutOptions {
  /** Space kept clear around the highlighted elements, px. @default 0 */
  padding: number;
  /** z-index of the panes (guides §2). @default 10000 */
  zIndex: number;
  /** Colour of the panes, any CSS colour. @default '#0f172a' */
  bgColor: string;
  /** Opacity of the panes, 0 to 1. @default 0.45 */
  opacity: number;
  /** CSS selectors of more elements to leave clear; the hole covers them all (their union). @default [] */
  additionalElements: string[];
}

/**
 * The block-out of a step's attributes, or null when it has none or it is not enabled. Fields of the wrong
 * kind fall back to their defaults; selectors are checked only when the page is queried (that failure is
 * 'Failed to add BlockOut ui').
 */
export function readBlockOut(attributes: Record<string, unknown> | undefined): BlockOutOptions | null {
  const raw = attributes?.blockOutUI;
  if (!raw || typeof raw !== 'object') return null;
  const b = raw as Record<string, unknown>;
  if (b.enabled !== true) return null;
  const num = (value: unknown): number | undefined => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
  };
  const padding = num(b.padding);
  const zIndex = num(b.zindex ?? b.zIndex);
  const opacity = num(b.opacity);
  const extra = b.additionalElements;
  return {
    padding: padding !== undefined && padding >= 0 ? padding : BLOCK_OUT_DEFAULTS.padding,
    zIndex: zIndex !== undefined ? Math.round(zIndex) : BLOCK_OUT_DEFAULTS.zIndex,
    bgColor: typeof b.bgColor === 'string' && b.bgColor.trim() ? b.bgColor.trim() : BLOCK_OUT_DEFAULTS.bgColor,
    opacity: opacity !== undefined && opacity >= 0 && opacity <= 1 ? opacity : BLOCK_OUT_DEFAULTS.opacity,
    additionalElements: (Array.isArray(extra) ? extra : typeof extra === 'string' ? [extra] : []).filter(
      (s): s is string => typeof s === 'string' && s.trim() !== '',
    ),
  };
}

/** The smallest rectangle holding every rect that has a size (hidden elements measure 0 x 0), or null. */
export function unionRect(rects: readonly Rect[]): Rect | null {
  let union: Rect | null = null;
  for (const r of rects) {
    if (r.right - r.left <= 0 && r.bottom - r.top <= 0) continue;
    union = union
      ? { left: Math.min(union.left, r.left), top: Math.min(union.top, r.top), right: Math.max(union.right, r.right), bottom: Math.max(union.bottom, r.bottom) }
      : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }
  return union;
}

/** `rect` grown by `padding` on every side. */
export function padRect(rect: Rect, padding: number): Rect {
  return { left: rect.left - padding, top: rect.top - padding, right: rect.right + padding, bottom: rect.bottom + padding };
}

/**
 * The four panes that cover a `width` x `height` viewport except `hole`: top and bottom span the full
 * width, left and right fill the hole's band. The hole is rounded outwards to whole pixels and clipped to
 * the viewport first, so a hole partly
 * or wholly off screen still gives panes that tile the viewport exactly, never negative sizes.
 */
export function blockOutPanes(hole: Rect, viewport: { width: number; height: number }): [top: Pane, bottom: Pane, left: Pane, right: Pane] {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  // Whole pixels, the hole rounded outwards: panes on fractional edges are antialiased, which shows as a
  // light seam along the viewport's edge and a blurred rim around the hole.
  const left = clamp(Math.floor(hole.left), viewport.width);
  const right = clamp(Math.ceil(Math.max(hole.right, hole.left)), viewport.width);
  const top = clamp(Math.floor(hole.top), viewport.height);
  const bottom = clamp(Math.ceil(Math.max(hole.bottom, hole.top)), viewport.height);
  return [
    { left: 0, top: 0, width: viewport.width, height: top },
    { left: 0, top: bottom, width: viewport.width, height: viewport.height - bottom },
    { left: 0, top, width: left, height: bottom - top },
    { left: right, top, width: viewport.width - right, height: bottom - top },
  ];
}
