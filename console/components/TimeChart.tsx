/**
 * A time series chart on uPlot (canvas): one line per series over shared times. uPlot draws 100k points in a
 * few ms and weighs ~50 KB, a tenth of the SVG libraries; the console's series are buckets of a range. With
 * `time` false the x values are plain numbers (retention's weeks after first use), and a value may be null (a gap).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line. */
export interface ChartSeries {
  label: string;
  /** null: no value there (the line breaks). */
  values: Array<number | null>;
  color: string;
}

/** Props of {@link TimeChart}. */
export interface TimeChartProps {
  /** Bucket starts, epoch ms; with `time` false, plain numbers. */
  times: number[];
  /** The x values are epoch ms, drawn as dates and times. @default true */
  time?: boolean;
  /** How the y axis and the legend write a value (retention's shares as percentages). @default uPlot's numbers */
  formatValue?(value: number): string;
  /** The x values' name in the legend, with `time` false. @default 'Value' (uPlot's) */
  xLabel?: string;
  /** The y axis' fixed span (0 to 100 for percentages). @default fitted to the values */
  yRange?: [number, number];
  series: ChartSeries[];
  /** @default 240 */
  height?: number;
  /** Accessible name of the chart. */
  title: string;
}

/** Draws the chart into a box that follows its container's width. */
export function TimeChart({ times, series, height = 240, title, time = true, formatValue, xLabel, yRange }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time }, ...(yRange ? { y: { range: yRange } } : {}) },
        axes: [
          // Plain x values are whole steps (weeks): no ticks between them.
          { stroke: '#6b7280', grid: { stroke: '#eef0f3' }, ...(time ? {} : { incrs: [1, 2, 5, 10] }) },
          {
            stroke: '#6b7280', grid: { stroke: '#eef0f3' }, size: 50,
            ...(formatValue ? { values: (_: uPlot, splits: number[]) => splits.map(formatValue) } : {}),
          },
        ],
        series: [
          xLabel === undefined ? {} : { label: xLabel },
          ...series.map((s) => ({
            label: s.label, stroke: s.color, width: 2, fill: `${s.color}1a`, points: { show: times.length < 60 },
            ...(formatValue ? { value: (_: uPlot, v: number | null) => (v === null ? '—' : formatValue(v)) } : {}),
          })),
        ],
      },
      // uPlot's time values are seconds.
      [time ? times.map((t) => t / 1000) : times, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, series, height, time, formatValue, xLabel, yRange]);
  return <div className="chart" ref={box} role="img" aria-label={title} />;
}
