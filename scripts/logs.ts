import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { prettyFactory } from 'pino-pretty';
import { loadConfig } from '../platform/config';
import { logsDirOf } from './lib/process-output';

/**
 * `npm run logs [-- <process>…] [-f] [-n N] [--json]`: the log files `npm start` writes under `<DATA_DIR>/logs`
 * (api, worker, ingest: their JSON log lines; temporal, postgres: what those servers print). Without a name, every
 * process's; `-f` follows them (across rotations) until Ctrl-C; `-n` lines from the end of each (default 40).
 * Lines are shown readable (pino-pretty, one line each) on a terminal, as the raw JSON with --json or into a pipe.
 */
const { values: o, positionals: names } = parseArgs({
  allowPositionals: true,
  options: {
    follow: { type: 'boolean', short: 'f', default: false },
    lines: { type: 'string', short: 'n', default: '40' },
    json: { type: 'boolean', default: !process.stdout.isTTY },
  },
});

const dir = logsDirOf(path.resolve(__dirname, '..', loadConfig().dataDir));
const available = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.log')) : [];
const wanted = names.length ? names.map((n) => `${n.replace(/\.log$/, '')}.log`) : available;
const missing = wanted.filter((f) => !available.includes(f));
if (missing.length || !wanted.length) {
  console.error(
    `${missing.length ? `no log file ${missing.join(', ')}` : 'no log files yet'} in ${dir}` +
      `; there are: ${available.map((f) => f.replace(/\.log$/, '')).join(', ') || 'none (start the system with npm start first)'}`,
  );
  process.exit(1);
}

const pretty = prettyFactory({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true });
const several = wanted.length > 1;
let current = '';
let partial = '';
// tail -F follows a file by name, so a rotated log goes on in its new file; with several files it names each.
const tail = spawn('tail', ['-n', o.lines, ...(o.follow ? ['-F'] : []), ...wanted.map((f) => path.join(dir, f))], { stdio: ['ignore', 'pipe', 'inherit'] });
tail.stdout.on('data', (b: Buffer) => {
  const lines = (partial + b.toString()).split('\n');
  partial = lines.pop()!;
  for (const line of lines) {
    const header = /^==> (.*) <==$/.exec(line);
    if (header) {
      current = path.basename(header[1]!, '.log');
      continue;
    }
    if (!line) continue;
    const shown = o.json ? line : pretty(line).trimEnd();
    process.stdout.write(`${several && !o.json ? `${current.padEnd(8)} ` : ''}${shown}\n`);
  }
});
tail.once('close', (code) => process.exit(code ?? 0));
process.once('SIGINT', () => tail.kill('SIGINT'));
