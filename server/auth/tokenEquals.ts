/**
 * Compares a presented token with the admin token in constant time: both are hashed first (SHA-256), so the
 * comparison takes the same time whatever the presented token's length or content.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export function tokenEquals(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}
