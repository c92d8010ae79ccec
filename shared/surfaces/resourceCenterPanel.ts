/**
 * The resource center's (guides §2) decisions made on the page, as pure functions: what the search box keeps,
 * the words that announce its results, and a badge's corner for right-to-left languages.
 */
import { RESOURCE_CENTER_SEARCH_MIN_CONTENT } from '../constants';
import type { LauncherPosition, ResourceCenterItem } from '../protocol';

/**
 * guides §2 search: an item is kept when its name contains the text (case-insensitive, trimmed), or, for
 * text of at least 3 characters, when its step content does ("Search text shorter than 3 characters matches
 * no step content"). No text keeps every item.
 */
export function searchResourceCenter<T extends Pick<ResourceCenterItem, 'name' | 'text'>>(items: readonly T[], search: string): T[] {
  const text = search.trim().toLowerCase();
  if (!text) return items.slice();
  const inContent = text.length >= RESOURCE_CENTER_SEARCH_MIN_CONTENT;
  return items.filter((i) => i.name.toLowerCase().includes(text) || (inContent && i.text.toLowerCase().includes(text)));
}

/** guides §2 the announced results count, singular and plural (the spec gives no wording: ours). */
export function resultsLabel(count: number): string {
  return count === 1 ? '1 result' : `${count} results`;
}

/**
 * guides §2 a badge corner, mirrored (left and right swapped) for right-to-left languages he and ar: the
 * resource center's (the spec's words) and the launcher's (ours: its panel is laid out right to left too).
 */
export function mirroredCorner(position: LauncherPosition, rtl: boolean): LauncherPosition {
  if (!rtl) return position;
  return position.includes('left') ? (position.replace('left', 'right') as LauncherPosition) : (position.replace('right', 'left') as LauncherPosition);
}

/**
 * guides §2 "Announcements become seen when scrolled into view": as a what's-new item, once its top third is
 * inside the visible part of its scrolling list. Boxes are top/bottom in px of the same coordinate space.
 */
export function isAnnouncementInView(item: { top: number; bottom: number }, view: { top: number; bottom: number }): boolean {
  const third = item.top + (item.bottom - item.top) / 3;
  return item.bottom > item.top && item.top >= view.top - 1 && third <= view.bottom;
}
