import { DRIFT_TRADE_COLUMNS } from '../../clients/drift/drift-trade-row';

/**
 * Drift day files for tests: the generator is the simulator's (ingest/perps-simulator/sim-drift-files.ts, from the
 * published schema, never copied data); here the ways a stored file can be broken.
 */
export { driftTradeFile, pubkey, type FixtureTrade } from '../../ingest/perps-simulator/sim-drift-files';

/** The same file with one value that is not a number (row `row`, 1-based, column `column`). */
export function withBadValue(csv: string, row: number, column: (typeof DRIFT_TRADE_COLUMNS)[number], value = 'NaN?'): string {
  const lines = csv.split('\n');
  const i = DRIFT_TRADE_COLUMNS.indexOf(column);
  const cells = lines[row]!.split(',');
  cells[i] = value;
  lines[row] = cells.join(',');
  return lines.join('\n');
}

/** The file as stored cut off part-way through a row (an upload that stopped). */
export function truncatedMidRow(csv: string, keepRows: number): string {
  const lines = csv.split('\n');
  const cut = lines[keepRows + 1]!;
  return `${lines.slice(0, keepRows + 1).join('\n')}\n${cut.slice(0, Math.floor(cut.length / 2))}`;
}
