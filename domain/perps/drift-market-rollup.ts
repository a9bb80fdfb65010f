import type { DriftTrade } from './drift-trade';

/**
 * Per-market rollups of the imported Drift day files: how many files, trade rows and how much volume, the
 * range of days covered and the most recently ingested files. A file's summary is computed once while it is
 * read (`summariseDriftFile`); the rollup folds summaries, so re-importing a file (same key) replaces its
 * summary instead of adding it twice.
 */
export type DriftFileSummary = {
  fileKey: string;
  market: string;
  /** The file's UTC day, yyyy-mm-dd. */
  date: string;
  rows: number;
  volumeUsd: number;
  traders: number;
  firstTradeAt: number | null;
  lastTradeAt: number | null;
  ingestedAt: number;
  sha256: string;
};

export type DriftMarketRollup = {
  market: string;
  files: number;
  tradeRows: number;
  volumeUsd: number;
  firstDate: string | null;
  lastDate: string | null;
  recentFiles: Pick<DriftFileSummary, 'fileKey' | 'date' | 'rows' | 'ingestedAt'>[];
};

export function summariseDriftFile(
  f: { fileKey: string; market: string; date: string; sha256: string; ingestedAt: number },
  trades: readonly DriftTrade[],
): DriftFileSummary {
  const traders = new Set<string>();
  let volumeUsd = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const t of trades) {
    volumeUsd += t.quoteAmountUsd;
    if (t.taker) traders.add(t.taker);
    if (t.maker) traders.add(t.maker);
    first = first === null ? t.at : Math.min(first, t.at);
    last = last === null ? t.at : Math.max(last, t.at);
  }
  return { ...f, rows: trades.length, volumeUsd, traders: traders.size, firstTradeAt: first, lastTradeAt: last };
}

export function driftMarketRollups(files: readonly DriftFileSummary[], recent = 10): DriftMarketRollup[] {
  const latest = new Map<string, DriftFileSummary>();
  for (const f of files) {
    const had = latest.get(f.fileKey);
    if (!had || f.ingestedAt >= had.ingestedAt) latest.set(f.fileKey, f);
  }
  const byMarket = new Map<string, DriftFileSummary[]>();
  for (const f of latest.values()) byMarket.set(f.market, [...(byMarket.get(f.market) ?? []), f]);
  return [...byMarket.entries()]
    .map(([market, list]) => {
      const dates = list.map((f) => f.date).sort();
      return {
        market,
        files: list.length,
        tradeRows: list.reduce((s, f) => s + f.rows, 0),
        volumeUsd: list.reduce((s, f) => s + f.volumeUsd, 0),
        firstDate: dates[0] ?? null,
        lastDate: dates.at(-1) ?? null,
        recentFiles: [...list]
          .sort((a, b) => b.ingestedAt - a.ingestedAt || b.date.localeCompare(a.date))
          .slice(0, recent)
          .map(({ fileKey, date, rows, ingestedAt }) => ({ fileKey, date, rows, ingestedAt })),
      };
    })
    .sort((a, b) => a.market.localeCompare(b.market));
}
