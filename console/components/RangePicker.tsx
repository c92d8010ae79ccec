/** The date range control: presets, or a custom from/to. */
import { RANGE_PRESETS, type ChosenRange } from '../useRange';

const toInput = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Props of {@link RangePicker}. */
export interface RangePickerProps {
  range: ChosenRange;
  onChange(next: ChosenRange): void;
}

/** A select of presets and, for 'custom', two datetime inputs. */
export function RangePicker({ range, onChange }: RangePickerProps) {
  return (
    <div className="range">
      <select
        aria-label="Date range"
        value={range.key}
        onChange={(e) => {
          const key = e.target.value;
          if (key === 'custom') onChange({ key, from: range.from, to: range.to });
          else onChange({ key, from: 0, to: 0 });
        }}
      >
        {RANGE_PRESETS.map((p) => (
          <option key={p.key} value={p.key}>
            {p.label}
          </option>
        ))}
        <option value="custom">Custom…</option>
      </select>
      {range.key === 'custom' && (
        <>
          <input
            type="datetime-local"
            aria-label="From"
            value={toInput(range.from)}
            onChange={(e) => {
              const from = new Date(e.target.value).getTime();
              if (from < range.to) onChange({ ...range, from });
            }}
          />
          <input
            type="datetime-local"
            aria-label="To"
            value={toInput(range.to)}
            onChange={(e) => {
              const to = new Date(e.target.value).getTime();
              if (to > range.from) onChange({ ...range, to });
            }}
          />
        </>
      )}
    </div>
  );
}
