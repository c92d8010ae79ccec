import { SHORTENED_FIELD_LENGTH } from '../constants';

/**
 * spec: analytics §8, §9 — 'Max length exceeded for an event' leads to shortening long fields to 2000
 * characters and a retry. Returns the event's JSON with every string longer than the limit cut to it
 * (object keys untouched), or null when nothing was long enough to cut.
 */
export function shortenEvent(json: string, limit: number = SHORTENED_FIELD_LENGTH): string | null {
  let changed = false;
  const shortened = JSON.stringify(JSON.parse(json), (_key, value: unknown) => {
    if (typeof value === 'string' && value.length > limit) {
      changed = true;
      return value.slice(0, limit);
    }
    return value;
  });
  return changed ? shortened : null;
}
