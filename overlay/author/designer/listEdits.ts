/** The designer's edits of an ordered list (steps, buttons, options, rules, conditions, modules). Pure. */

/** `list` with item `i` replaced by `next`, or taken out when `next` is null. */
export function replaceAt<T>(list: readonly T[], i: number, next: T | null): T[] {
  const copy = [...list];
  if (next === null) copy.splice(i, 1);
  else copy[i] = next;
  return copy;
}

/** `list` with item `from` moved to `to`; null when `to` is outside the list. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] | null {
  if (to < 0 || to >= list.length) return null;
  const copy = [...list];
  const [moved] = copy.splice(from, 1);
  copy.splice(to, 0, moved!);
  return copy;
}
