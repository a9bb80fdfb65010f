import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a file generated from `source`; with `--check` on the command line writes nothing and exits 1 when the
 * committed file differs, so `npm test` catches a source changed without what is generated from it.
 */
export function writeOrCheckGenerated(file: string, generated: string, o: { source: string; command: string }): void {
  const relative = path.relative(process.cwd(), file);
  if (!process.argv.includes('--check')) {
    fs.writeFileSync(file, generated);
    console.log(`wrote ${relative}`);
    return;
  }
  const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (committed !== generated) {
    console.error(`${relative} is out of date with ${o.source}: run \`${o.command}\` and commit the result`);
    process.exit(1);
  }
  console.log(`${relative} matches ${o.source}`);
}
