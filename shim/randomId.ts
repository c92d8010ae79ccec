const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random alphanumerics from the platform's CSPRNG. */
export function randomId(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = '';
  // 62 does not divide 256; the slight bias is irrelevant for ids that only need to be unique.
  for (let i = 0; i < length; i++) id += ALPHANUMERIC[bytes[i]! % ALPHANUMERIC.length];
  return id;
}
