/** One figure of a view's tiles with its label; a figure that signals trouble is drawn as a warning. */

/** Props of {@link Stat}. */
export interface StatProps {
  label: string;
  value: string;
  /** The figure signals trouble (failures, errors): warning colours and a ⚠ before the label (styles.css). @default false */
  warn?: boolean;
  /** What the figure counts, when the label alone leaves it open (a tooltip). */
  hint?: string;
}

/** A tile: the figure over its label. */
export function Stat({ label, value, warn = false, hint }: StatProps) {
  return (
    <div className={warn ? 'stat warn' : 'stat'} title={hint}>
      <div className="stat-value">{value}</div>
      <div className="stat-label">{label}</div>
    </div>
  );
}
