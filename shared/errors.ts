/**
 * The one table of error codes. Errors cross the shim-worker boundary as `{ code, message }`, never as
 * thrown objects (structured clone drops their class and stack is meaningless on the other side).
 */
export const ERROR_CODES = {
  /** The bridge and the worker disagree on `PROTOCOL_VERSION`. */
  protocolMismatch: 'protocol_mismatch',
  /** A call reached the worker before `init`. */
  notInitialized: 'not_initialized',
  /** The collector answered outside 200-299. */
  badStatus: 'bad_status',
  /** The network refused the request (offline, DNS, CORS). */
  network: 'network',
  /** Guide or content payload did not have the expected shape. */
  badPayload: 'bad_payload',
  /** A guide or step id that the loaded guides do not have. */
  unknownGuide: 'unknown_guide',
  /** guides §5: a step rendered on a page its page rule does not match; the display is withdrawn. */
  pageRule: 'page_rule',
  /** guides §5: the subscription lacks the guides feature. */
  notInSubscription: 'not_in_subscription',
  /** A caller's argument was not acceptable. */
  invalidArgument: 'invalid_argument',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An error as it crosses the boundary. */
export interface AgentError {
  code: ErrorCode;
  message: string;
}

/** The result of every fallible worker call. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AgentError };

/** A successful outcome. */
export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
/** A failed outcome. */
export const fail = <T = never>(code: ErrorCode, message: string): Outcome<T> => ({
  ok: false,
  error: { code, message },
});
