import { scaleLinear, scaleUtc } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import { formatDay, formatMoney, zoneLabel } from '@/lib/format';
import { DataTable } from './data-table';

export interface DailyPoint {
  day: string;
  balance: number;
}

const W = 640;
const H = 200;
const M = { top: 10, right: 12, bottom: 24, left: 92 };
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
// The days are calendar days of the merchant's zone (YYYY-MM-DD), placed at UTC midnight only to be drawn and named.
const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
// A day's label centred on its tick would run past the drawing's right edge when the tick is the last day (d3's ticks of
// a month are weeks' first days, so one day in seven): near either end a label ends, or starts, at its tick.
const LABEL_HALF_WIDTH = 24;
const anchorAt = (px: number) => (px > W - M.right - LABEL_HALF_WIDTH ? 'end' : px < M.left + LABEL_HALF_WIDTH ? 'start' : 'middle');

/**
 * The available balance at the end of each day as a step line (the balance holds until the next
 * change), drawn on the server with d3's scales and line generator: plain SVG, no script and no
 * inline style, so it works before hydration and under the CSP. Its accessible name is a text
 * summary; the figures are in a table beside it; the line is also marked by dots and labelled axes,
 * so nothing depends on colour.
 */
export function BalanceChart({ points, currency, timeZone }: { points: DailyPoint[]; currency: string; timeZone: string }) {
  const values = points.map((p) => p.balance);
  const dates = points.map((p) => new Date(`${p.day}T00:00:00Z`));
  const x = scaleUtc()
    .domain([dates[0]!, dates.at(-1)!])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(1, ...values)])
    .nice(4)
    .range([H - M.bottom, M.top]);
  const path =
    line<DailyPoint>(
      (_, i) => x(dates[i]!),
      (p) => y(p.balance),
    ).curve(curveStepAfter)(points) ?? '';
  const summary = `Available balance over the last ${points.length} days: ${formatMoney(values[0]!, currency)} on ${formatDay(points[0]!.day)}, ${formatMoney(values.at(-1)!, currency)} today; lowest ${formatMoney(Math.min(...values), currency)}, highest ${formatMoney(Math.max(...values), currency)}.`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="balance-chart-summary" className="chart-svg">
        {y.ticks(4).map((v) => (
          <g key={v} className="chart-grid">
            <line x1={M.left} x2={W - M.right} y1={y(v)} y2={y(v)} />
            <text x={M.left - 6} y={y(v)} dy="0.32em" textAnchor="end">{`${currency} ${compact.format(v)}`}</text>
          </g>
        ))}
        {x.ticks(5).map((d) => (
          <text key={d.toISOString()} className="chart-axis" x={x(d)} y={H - 6} textAnchor={anchorAt(x(d))}>
            {dayLabel.format(d)}
          </text>
        ))}
        <path d={path} className="chart-line" fill="none" />
        {points.map((p, i) => (
          <circle key={p.day} cx={x(dates[i]!)} cy={y(p.balance)} r="2.5" className="chart-dot" />
        ))}
      </svg>
      <figcaption id="balance-chart-summary" data-testid="balance-chart-summary">
        {summary}
      </figcaption>
      <details>
        <summary>The figures, day by day</summary>
        <DataTable
          label="Daily balances"
          narrow
          rows={points}
          rowKey={(p) => p.day}
          rowProps={(p) => ({ 'data-testid': 'chart-day', 'data-day': p.day, 'data-balance': p.balance })}
          columns={[
            { header: `Day (${zoneLabel(timeZone)})`, cell: (p) => p.day },
            { header: 'Available at the end of the day', cell: (p) => formatMoney(p.balance, currency), numeric: true },
          ]}
        />
      </details>
    </figure>
  );
}
