/**
 * What an audit entry changed (issue #33), as the Audit page lists it: each leaf of its `before` and `after` that
 * differs, by path (`state`, `guide.steps[0].markdown`), before -> after. Pure: two JSON values in, a list out.
 */

/** One changed value; `before` or `after` undefined where the path is only on one side. */
export interface ChangedField {
  path: string;
  before?: unknown;
  after?: unknown;
}

// An entry's guide nests a few levels deep; past this depth a value is compared (and shown) whole.
const MAX_DEPTH = 12;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function flatten(value: unknown, path: string, depth: number, into: Map<string, unknown>): void {
  if (depth < MAX_DEPTH && Array.isArray(value) && value.length > 0) {
    value.forEach((item, i) => flatten(item, `${path}[${i}]`, depth + 1, into));
  } else if (depth < MAX_DEPTH && isObject(value) && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value)) flatten(item, path ? `${path}.${key}` : key, depth + 1, into);
  } else {
    into.set(path, value);
  }
}

/** The fields that differ from `before` to `after`, in the order they first appear. */
export function auditChanges(before: unknown, after: unknown): ChangedField[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  flatten(before, '', 0, a);
  flatten(after, '', 0, b);
  const changes: ChangedField[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(path);
    const now = b.get(path);
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    changes.push({ path: path || '(value)', ...(a.has(path) ? { before: was } : {}), ...(b.has(path) ? { after: now } : {}) });
  }
  return changes;
}

/** A value as one short line: strings quoted, the rest as JSON, cut at `max` characters. */
export function shortValue(value: unknown, max = 120): string {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? `“${value}”` : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
