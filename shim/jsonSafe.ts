/**
 * A host's value as JSON carries it (analytics §5 metadata and track properties): functions, symbols and
 * undefined left out, a BigInt as its digits, an object met again inside itself as '[Circular]', a Date (any
 * toJSON) as it says. Host objects hold such values (a user model with methods, a store entry that points back at
 * itself), and one of them in an event's data could not be posted to the worker: the whole batch failed, every
 * event in it was lost, and the host page saw the error. Made plain here, the data crosses and stringifies safely.
 */
export function jsonSafe<T>(value: T): T {
  const ancestors: unknown[] = [];
  const text = JSON.stringify(value, function (this: unknown, _key: string, v: unknown) {
    if (typeof v === 'bigint') return String(v);
    if (!v || typeof v !== 'object') return v;
    // The objects the walk is inside of: this call's holder and its own ancestors.
    while (ancestors.length && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(v)) return '[Circular]';
    ancestors.push(v);
    return v;
  });
  return text === undefined ? value : JSON.parse(text);
}
