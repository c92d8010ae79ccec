/**
 * Control characters, lone surrogates and the two line separators JSON allows raw: what a name, a field or a label a
 * person types must not hold (a name goes into logs, CSV exports, audit lines and the console's text). One
 * definition for every checker of the server's input.
 */
export const CONTROL_CHARACTERS = /[\p{Cc}\p{Cs}\u2028\u2029]/u;
