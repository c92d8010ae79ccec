/** How the console writes numbers, times and durations. */

const numberFormat = new Intl.NumberFormat('en');

/** 12,345. */
export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** A share (0..1) as a whole percentage: '33%'. */
export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** '1 visitor', '12,345 visitors': a count with its noun, singular for one. */
export function formatCounted(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** '2026-11-25 14:03:07' in the viewer's time zone, or '—'. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** '3 min ago', '2 h ago', '5 d ago'. */
export function formatAgo(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

/** '1 min 5 s', '340 ms'. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m} min ${s % 60} s`;
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The path of a URL (with its query), for tables; the URL itself when it cannot be parsed. */
export function pagePath(url: string | null): string {
  if (!url) return '—';
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** What a clicked element is called in a table: '#id', else its text, else its tag. */
export function elementLabel(element: { tag: string; id: string; text: string } | null): string {
  if (!element) return '';
  const tag = element.tag.toLowerCase();
  if (element.id) return `${tag}#${element.id}${element.text ? ` “${element.text}”` : ''}`;
  return element.text ? `${tag} “${element.text}”` : tag;
}
