import type { BalanceTransaction } from '@/lib/contract';
import { formatMoney } from '@/lib/format';

const DAY = 86_400_000;

/** End-of-day available balance for the last `days` days (UTC), from entries newest first. */
export function dailyBalances(entries: BalanceTransaction[], days: number, now = Date.now()) {
  const oldest = entries.at(-1);
  const startBalance = oldest ? oldest.balance_after - oldest.amount : 0;
  const today = Math.floor(now / DAY) * DAY;
  return Array.from({ length: days }, (_, i) => {
    const end = today - (days - 1 - i) * DAY + DAY;
    const last = entries.find((e) => Date.parse(e.created_at) < end);
    return { day: new Date(end - DAY).toISOString().slice(0, 10), balance: last ? last.balance_after : startBalance };
  });
}

/** A server-rendered SVG line of the available balance, with a text summary and the figures as a table. */
export function BalanceChart({ entries, currency }: { entries: BalanceTransaction[]; currency: string }) {
  const points = dailyBalances(entries, 30);
  const values = points.map((p) => p.balance);
  const max = Math.max(...values, 1);
  const min = Math.min(...values, 0);
  const w = 600;
  const h = 160;
  const x = (i: number) => (i / (points.length - 1)) * (w - 20) + 10;
  const y = (v: number) => h - 10 - ((v - min) / (max - min || 1)) * (h - 20);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.balance).toFixed(1)}`).join(' ');
  const summary = `Available balance over the last 30 days: ${formatMoney(values[0]!, currency)} on ${points[0]!.day}, ${formatMoney(values.at(-1)!, currency)} today; lowest ${formatMoney(Math.min(...values), currency)}, highest ${formatMoney(Math.max(...values), currency)}.`;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-labelledby="balance-chart-summary" className="chart-svg">
        <polyline points={line} className="chart-line" fill="none" />
        {points.map((p, i) => (
          <circle key={p.day} cx={x(i)} cy={y(p.balance)} r="2.5" className="chart-dot" />
        ))}
      </svg>
      <figcaption id="balance-chart-summary" data-testid="balance-chart-summary">
        {summary}
      </figcaption>
      <details>
        <summary>The figures, day by day</summary>
        <div className="table-scroll" role="region" aria-label="Daily balances" tabIndex={0}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Available at the end of the day</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.day}>
                  <td>{p.day}</td>
                  <td>{formatMoney(p.balance, currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
