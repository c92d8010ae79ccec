/**
 * The worker's I/O behind small ports, so unit tests pass fakes (STYLE §1, §3) and the pipeline code
 * never touches `fetch` or timers directly.
 */

export interface TransportRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  contentType?: string;
}

export interface TransportResponse {
  status: number;
  statusText: string;
  text(): Promise<string>;
}

/** Sends one HTTP request; rejects only when the network refused it. */
export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
}

/** Time and timers. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface WorkerPorts {
  transport: Transport;
  clock: Clock;
}

/**
 * fetch with keepalive first (spec: analytics §7, transports in order); keepalive bodies are limited to
 * 64 KiB by browsers, which the send silo (65536 characters) respects. Credentials are never sent: the
 * collector identifies visitors by the payload, not by cookies.
 */
export const fetchTransport: Transport = {
  async request({ method, url, body, contentType }) {
    const response = await fetch(url, {
      method,
      body,
      headers: contentType ? { 'Content-Type': contentType } : undefined,
      keepalive: true,
      credentials: 'omit',
      mode: 'cors',
    });
    return { status: response.status, statusText: response.statusText, text: () => response.text() };
  },
};

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
