/** A ranked list with a bar per row (top pages, top features, channels): the value's share of the largest. */
import { formatCount } from '../format';

/** One row. */
export interface BarRow {
  key: string;
  label: string;
  value: number;
  /** A second figure shown after the value ('12 visitors'). */
  note?: string;
}

/** Props of {@link BarList}. */
export interface BarListProps {
  rows: BarRow[];
  empty: string;
  /** Accessible name. */
  title: string;
}

/** The rows, largest first as given. */
export function BarList({ rows, empty, title }: BarListProps) {
  if (rows.length === 0) return <p className="muted">{empty}</p>;
  const max = Math.max(...rows.map((r) => r.value), 1);
  return (
    <ul className="bars" aria-label={title}>
      {rows.map((row) => (
        <li key={row.key}>
          <span className="bar" style={{ width: `${(row.value / max) * 100}%` }} />
          <span className="bar-label" title={row.label}>{row.label}</span>
          <span className="bar-value">
            {formatCount(row.value)}
            {row.note && <small> {row.note}</small>}
          </span>
        </li>
      ))}
    </ul>
  );
}
