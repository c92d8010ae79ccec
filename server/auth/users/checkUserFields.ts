/**
 * The checks of what the user, login and token routes read from a JSON body (issue #33, STYLE §9): each field's
 * type and bounds next to its parser, each refusal a 400 naming the field. Bodies are objects with known fields
 * only: `{ "role": "admin", "rol": "viewer" }` is refused, not half-read.
 */
import { HttpError } from '../../HttpError';
import { PASSWORD_MAX_LENGTH, passwordProblem } from './passwords';
import { isRole, ROLES, type Role } from '../roles';
import { CONTROL_CHARACTERS } from '../../controlCharacters';

/** RFC 5321's longest address. */
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;
export const TOKEN_NAME_MAX_LENGTH = 100;

/** The body as an object of the `allowed` fields only, or a 400. */
export function readBody(body: unknown, allowed: readonly string[], example: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, `the body must be a JSON object: ${example}`, 'body');
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !allowed.includes(key));
  if (unknown.length) throw new HttpError(400, `unknown field ${JSON.stringify(unknown[0])} (known: ${allowed.join(', ')})`, unknown[0]);
  return record;
}

/**
 * An email address, trimmed: one `@` between two non-empty parts, ≤ 254 characters, without spaces, control
 * characters or the punctuation only quoted addresses use (`<>()[]\\,;:"`): what people type, never markup.
 */
export function readEmail(value: unknown, field = 'email'): string {
  const refusal = () => new HttpError(400, `${field} must be an email address such as ada@example.com (at most ${EMAIL_MAX_LENGTH} characters)`, field);
  if (typeof value !== 'string' || value.length > EMAIL_MAX_LENGTH + 100) throw refusal();
  const email = value.trim();
  if (email.length > EMAIL_MAX_LENGTH || !/^[^@\s<>()[\]\\,;:"]+@[^@\s<>()[\]\\,;:"]+$/u.test(email) || CONTROL_CHARACTERS.test(email)) throw refusal();
  return email;
}

/** A person's name, trimmed: at most 100 characters, no control characters; may be empty. */
export function readName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || value.length > NAME_MAX_LENGTH + 100) throw new HttpError(400, `${field} must be text of at most ${NAME_MAX_LENGTH} characters`, field);
  const name = value.trim();
  if ([...name].length > NAME_MAX_LENGTH) throw new HttpError(400, `${field} must be text of at most ${NAME_MAX_LENGTH} characters`, field);
  if (CONTROL_CHARACTERS.test(name)) throw new HttpError(400, `${field} must not hold control characters or line breaks`, field);
  return name;
}

/** A role, exactly as written in ROLES. */
export function readRole(value: unknown, field = 'role'): Role {
  if (!isRole(value)) throw new HttpError(400, `${field} must be one of ${ROLES.join(', ')}`, field);
  return value;
}

/** A password that keeps the rule (passwords.ts). */
export function readPassword(value: unknown, field = 'password'): string {
  const problem = passwordProblem(value, field);
  if (problem) throw new HttpError(400, problem, field);
  return value as string;
}

/** A personal token's name: 1 to 100 characters, no control characters. */
export function readTokenName(value: unknown, field = 'name'): string {
  const name = typeof value === 'string' && value.length <= TOKEN_NAME_MAX_LENGTH + 100 ? value.trim() : '';
  if (!name || [...name].length > TOKEN_NAME_MAX_LENGTH || CONTROL_CHARACTERS.test(name)) {
    throw new HttpError(400, `${field} must be 1 to ${TOKEN_NAME_MAX_LENGTH} characters without control characters: what the token is for`, field);
  }
  return name;
}

/** A password as a login reads it: bounded before any hash (passwords.ts); a short one is simply wrong. */
export function readLoginPassword(password: unknown): string {
  if (typeof password !== 'string' || !password) throw new HttpError(400, 'password is required: { "email": "...", "password": "..." }', 'password');
  if (password.length > PASSWORD_MAX_LENGTH) throw new HttpError(400, `password is too long: at most ${PASSWORD_MAX_LENGTH} characters`, 'password');
  return password;
}

/** The app of a designer session: 1 to 100 characters once trimmed (an api key's bound). */
export function readApiKey(value: unknown): string {
  const apiKey = typeof value === 'string' ? value.trim() : '';
  if (!apiKey) throw new HttpError(400, 'apiKey is required: { "apiKey": "..." }', 'apiKey');
  if (apiKey.length > 100) throw new HttpError(400, 'apiKey is at most 100 characters', 'apiKey');
  return apiKey;
}
