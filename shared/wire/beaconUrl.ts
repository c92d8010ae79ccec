/**
 * Builds a data-host URL such as `{dataHost}/data/ptm.gif/{apiKey}?v=&ct=&jzb=` (wire-protocol.md
 * "Endpoints"). Parameters with an undefined value are left out; order is kept as given.
 */
export function beaconUrl(
  dataHost: string,
  endpoint: string,
  apiKey: string,
  params: Record<string, string | number | undefined>,
): string {
  let query = '';
  for (const key in params) {
    const value = params[key];
    if (value === undefined) continue;
    query += `${query ? '&' : '?'}${key}=${encodeURIComponent(String(value))}`;
  }
  return `${dataHost}/data/${endpoint}/${encodeURIComponent(apiKey)}${query}`;
}
