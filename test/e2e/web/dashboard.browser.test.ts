import type { Page } from 'playwright-core';
import { accuracyActivities } from '../../../activities/accuracy';
import { ledgerActivities } from '../../../activities/ledger';
import { createLiveTick } from '../../../activities';
import { createModelFitStore } from '../../../db/scoring/model-fit-store';
import { createLaunchEventStore } from '../../../db/mint/launch-event-store';
import { utcHourStart } from '../../../domain/ledger/ledger-hour';
import { mintAddress, signature } from '../../../ingest/simulator/address-book';
import { SeededRandom } from '../../../ingest/simulator/seeded-random';
import { issueTestKey } from '../../support/access-keys';
import { afterBeta, useApi } from '../../support/api-harness';
import { areaContext } from '../../support/area-context';
import { launchChromium, screenshot, watchErrors, type Browser } from '../../support/browser';
import { seedResolvedPredictions, seedScoredMarket } from '../../support/scored-market';
import { keyedApi, typedApi } from '../../support/typed-api';

/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) over the real API and a test database
 * holding a simulated market scored by the real models and a resolved history: the table fills and sorts by click
 * and keyboard, a new snapshot arrives without a reload, the signal panel shows its states, the reliability diagram
 * draws, the mint page lists its predictions, and the proof checker accepts a proof domain/ledger built and rejects
 * it tampered. No page may log an error beyond the documented states it shows. Screenshots: .cache/screenshots/.
 */
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
// After the beta window: keyed operations need a key, so the signal panel meets its "needs a key" state.
const { t, api } = useApi({ now: () => now, env: afterBeta() });
const http = typedApi(() => api.url);
let browser: Browser;

/** The documented answers the pages show as states (each is a console error in Chromium): anything else fails. */
const EXPECTED = [
  { url: /\/api\/v1\/signals/, status: 401 },
  { url: /\/api\/accuracy$/, status: 503 },
];

async function open(
  path: string,
  viewport = { width: 1440, height: 900 },
  o: { key?: string } = {},
): Promise<{ page: Page; errors: () => string[]; requests: string[] }> {
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  // A key as the signal panel's form stores it (this tab's sessionStorage), there before the page's first request.
  if (o.key) await page.addInitScript(`sessionStorage.setItem('launchpad-api-key', ${JSON.stringify(o.key)})`);
  const errors = watchErrors(page, EXPECTED);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${api.url}${path}`);
  return { page, errors, requests };
}

/** The table's rows, top to bottom, by mint address. */
const rowOrder = (page: Page) => page.$$eval('#live tbody tr', (rows) => rows.map((r) => r.getAttribute('data-mint')!));

type Row = { mint: string; grad_prob: number | null; market_cap_sol: number; age_s: number };
/** The expected order: the column's values, nulls last in either direction, ties by address. */
function ordered(rows: Row[], value: (r: Row) => number | null, dir: 1 | -1): string[] {
  return [...rows]
    .sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      if (va === null || vb === null) return va === vb ? a.mint.localeCompare(b.mint) : va === null ? 1 : -1;
      return dir * (va - vb) || a.mint.localeCompare(b.mint);
    })
    .map((r) => r.mint);
}

beforeAll(async () => {
  await seedScoredMarket(t.db, now);
  await seedResolvedPredictions(t.db, now, 300);
}, 240_000);

// On a machine without Chromium this installs Debian's package first (minutes); CI has installed it up front.
beforeAll(async () => {
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

describe('the dashboard in Chromium', () => {
  it('says the accuracy page is not computed yet before the first recompute, and shows the serving models’ backtest apart', async () => {
    const cells = [
      { lo: 0, hi: 0.05, n: 180, positives: 3 },
      { lo: 0.5, hi: 0.7, n: 60, positives: 33 },
    ];
    const version = 'knn-v1@60:1000:backtestfixture+synthetic';
    await createModelFitStore(t.db).recordFits([
      {
        predictor: 'grad_prob',
        ageBucket: 60,
        version,
        status: 'live',
        samplesTotal: 1000,
        samplesPositive: 80,
        minSamples: 200,
        calibrationMethod: 'isotonic',
        calibrationSamples: 240,
        metric: null,
        fittedAt: now,
        fitMs: 5,
        backtest: { n: 240, positives: 36, auc: 0.8123, cells },
      },
    ]);
    const { page, errors } = await open('/accuracy');
    await page.getByText('Not computed yet').waitFor();
    const serving = page.locator('#serving-models');
    await serving.getByText('Backtest, not forward accuracy').waitFor();
    await serving.getByText('Synthetic: fitted on simulated history').waitFor();
    const row = serving.locator('tbody tr', { hasText: 'grad_prob · 60 s' });
    const cellsText = (await row.locator('th, td').allInnerTexts()).map((x) => x.trim());
    expect(cellsText).toEqual(['grad_prob · 60 s', 'live', version, 'backtest, synthetic', '240', '36 (15.0%)', '0.812']);
    await screenshot(page, 'accuracy-backtest', { full: true });
    expect(errors()).toEqual([]);
    await page.close();
    await t.db('model_fits').where({ version }).del();
  });

  it('without a key fills the table from the public list and says its predictions are withheld', async () => {
    const pub = (await http.GET('/api/live')).data!;
    expect(pub.mints.length).toBeGreaterThan(5);
    expect(pub.mints.every((m) => m.grad_prob === null)).toBe(true);
    const { page, errors } = await open('/');
    await page.waitForSelector(`#live[data-rows="${pub.mints.length}"]`);
    await page.getByText('Predictions are withheld from the public list').waitFor();
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('with a Builder key fills the live table by grad_prob, scored ones with their calibration cell', async () => {
    const key = await issueTestKey(t.db, 'builder');
    const live = await http.GET('/api/v1/live', { params: { query: { limit: 200 } }, headers: key.bearer });
    const mints = live.data!.mints;
    expect(mints.filter((m) => m.grad_prob !== null).length).toBeGreaterThan(5);
    await accuracyActivities.create(areaContext(t.db, { now: () => now })).recomputeAccuracy();

    const { page, errors, requests } = await open('/', undefined, { key: key.plaintext });
    await page.waitForSelector(`#live[data-rows="${mints.length}"]`);
    expect(await rowOrder(page)).toEqual(ordered(mints, (m) => m.grad_prob, -1));
    expect(await page.getAttribute('#live th[data-col="grad"]', 'aria-sort')).toBe('descending');
    const topMint = (await rowOrder(page))[0];
    const top = mints.find((m) => m.mint === topMint)!;
    const topRow = page.locator(`#live tbody tr[data-mint="${top.mint}"]`);
    expect(await topRow.locator('th[scope="row"] a').getAttribute('href')).toBe(`/mint/${top.mint}`);
    expect(await topRow.locator('td').nth(1).innerText()).toContain(`${(top.grad_prob! * 100).toFixed(1)}%`);
    expect(await topRow.locator('td').nth(1).innerText()).toMatch(/cell \d+–\d+%: (\S+% of [\d,]+ graduated|none resolved yet)/);

    // The side panels: status, the accuracy card with its diagram.
    await page.waitForSelector('#accuracy[data-state="ready"] svg.reliability');
    await page.waitForSelector('#status dl.facts');
    await screenshot(page, 'live-desktop', { full: true });
    // Everything the page loaded came from the API under test: no CDN, nothing from another origin.
    expect(requests.filter((u) => !u.startsWith(`${api.url}/`) && !u.startsWith('data:'))).toEqual([]);
    expect(requests).toContain(`${api.url}/web/app.js`);
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('says in words why the service is not all normal, and which inputs are simulated', async () => {
    const health = (await http.GET('/api/health')).data!;
    // This test world has no watchdog tick, feed or price of its own: there is always something to say.
    expect(health.reasons.length).toBeGreaterThan(0);
    const { page, errors } = await open('/');
    await page.waitForSelector('#status ul.health-reasons li');
    const headline = await page.locator('#status p.health').innerText();
    expect(headline).not.toContain('All systems normal');
    const listed = await page.$$eval('#status ul.health-reasons li', (li) => li.map((l) => [l.getAttribute('data-code'), l.textContent]));
    expect(listed).toEqual(health.reasons.map((r) => [r.code, r.message]));
    expect(await page.locator('#status').innerText()).toMatch(/Simulated inputs: the simulator launch feed.*Every figure here is synthetic\./s);
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('sorts by a click on a header and by the keyboard, and says how it is sorted', async () => {
    const mints = (await http.GET('/api/live')).data!.mints;
    const { page, errors } = await open('/');
    await page.waitForSelector(`#live[data-rows="${mints.length}"]`);

    await page.click('button[data-sort="mcap"]');
    expect(await page.getAttribute('#live th[data-col="mcap"]', 'aria-sort')).toBe('descending');
    expect(await page.getAttribute('#live th[data-col="grad"]', 'aria-sort')).toBeNull();
    expect(await rowOrder(page)).toEqual(ordered(mints, (m) => m.market_cap_sol, -1));
    await page.click('button[data-sort="mcap"]');
    expect(await page.getAttribute('#live th[data-col="mcap"]', 'aria-sort')).toBe('ascending');
    expect(await rowOrder(page)).toEqual(ordered(mints, (m) => m.market_cap_sol, 1));

    // Keyboard only: Tab from the first header to "Age", Enter sorts, Space reverses.
    await page.focus('button[data-sort="mint"]');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.getAttribute("data-sort")')).toBe('age');
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('#live th[data-col="age"]', 'aria-sort')).toBe('ascending');
    // Ages move on with the clock; the order they give does not.
    expect(await rowOrder(page)).toEqual(ordered(mints, (m) => m.age_s, 1));
    await page.keyboard.press('Space');
    expect(await page.getAttribute('#live th[data-col="age"]', 'aria-sort')).toBe('descending');
    expect(await rowOrder(page)).toEqual(ordered(mints, (m) => m.age_s, -1));
    expect(await page.locator('#live caption').innerText()).toMatch(/by Age, highest first/);
    expect(await page.locator('#live [role="status"]').innerText()).toBe('Sorted by Age, descending.');
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('shows a new snapshot without a reload, polling with If-None-Match (304 while unchanged)', async () => {
    const { page, errors } = await open('/');
    const statuses: number[] = [];
    page.on('response', (r) => r.url().endsWith('/api/live') && statuses.push(r.status()));
    const before = (await http.GET('/api/live')).data!.count;
    await page.waitForSelector(`#live[data-rows="${before}"]`);
    for (let i = 0; i < 50 && !statuses.includes(304); i++) await page.waitForTimeout(200);
    expect(statuses).toContain(304);

    // A launch 20 s ago, as ingestion writes it, then the projector's next snapshot.
    const rng = new SeededRandom(99);
    const mint = mintAddress(rng);
    await createLaunchEventStore(t.db).writeBatch([
      {
        kind: 'create',
        signature: signature(rng),
        ordinal: 0,
        slot: 9_999_999,
        at: new Date(now.getTime() - 20_000),
        source: 'test',
        mint,
        name: 'Fresh Launch',
        symbol: 'FRESH',
        uri: '',
        bondingCurve: mintAddress(rng),
        creator: mintAddress(rng),
        mayhem: false,
        vSolLamports: 30e9,
        vTokensRaw: 1_073e12,
      },
    ]);
    await createLiveTick(areaContext(t.db, { now: () => now })).refreshLiveSnapshot();
    await page.waitForSelector(`#live tbody tr[data-mint="${mint}"]`, { timeout: 10_000 });
    await page.waitForSelector(`#live[data-rows="${before + 1}"]`);
    expect(await page.locator(`#live tbody tr[data-mint="${mint}"] th`).innerText()).toContain('Fresh Launch');
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('asks the signal panel for a key, then polls the feed by tier', async () => {
    const key = await issueTestKey(t.db, 'builder');
    const { page, errors } = await open('/');
    await page.waitForSelector('#signals[data-state="401"]');
    await page.fill('#api-key', key.plaintext);
    await page.click('#signals button[type="submit"]');
    await page.waitForSelector('#signals[data-state="200"]');
    await page.getByText('No signals in the last hour.').waitFor();
    // The key is shown by its visible prefix only.
    expect(await page.locator('#signals').innerText()).not.toContain(key.plaintext);
    await page.click('button[data-tier="ACT"]');
    expect(await page.getAttribute('button[data-tier="ACT"]', 'aria-pressed')).toBe('true');
    await page.getByText('No ACT signals in the last hour.').waitFor();
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('draws the reliability diagram and the precision-by-band table from /api/accuracy', async () => {
    const acc = (await http.GET('/api/accuracy')).data!;
    const current = acc.grad_prob[0]!;
    const withData = current.calibration.filter((c) => c.n > 0).length;
    expect(withData).toBeGreaterThan(4);
    const { page, errors } = await open('/accuracy');
    await page.waitForSelector('svg.reliability');
    const first = page.locator('section.family').first();
    expect(await first.locator('svg.reliability .point').count()).toBe(withData);
    expect(await first.locator('svg.reliability title').first().textContent()).toBe(`Reliability of ${current.model_version}`);
    const bands = await first.locator('#precision-bands tbody tr').allInnerTexts();
    expect(bands.map((b) => b.split('\t')[0])).toEqual(['50%', '70%', '90%']);
    expect(bands[0]).toContain(String(current.threshold_bands[0]!.n));
    await screenshot(page, 'accuracy', { full: true });
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('opens a mint’s page from the table with its predictions and outcome', async () => {
    const { page, errors } = await open('/');
    await page.waitForSelector('#live tbody tr');
    const first = page.locator('#live tbody tr').first();
    const mint = (await first.getAttribute('data-mint'))!;
    await first.locator('th a').click();
    await page.waitForURL(`**/mint/${mint}`);
    const byMint = (await http.GET('/api/predictions/by_mint/{mint}', { params: { path: { mint } } })).data!;
    expect(byMint.count).toBeGreaterThan(0);
    await page.waitForSelector('#mint-predictions tbody tr');
    expect(await page.locator('#mint-predictions tbody tr').count()).toBe(byMint.count);
    await page.getByText('Not resolved yet').waitFor();
    await page.waitForSelector('#mint-now dl');
    expect(await page.locator('h1').innerText()).not.toBe('Mint');
    // A logged score is said as a score, never "not shown"; the market cap is in USD beside SOL when a price exists.
    const facts = await page.locator('#mint-now dl').innerText();
    expect(facts).not.toMatch(/not shown/);
    expect(facts).toMatch(/grad_prob\s+\d+(\.\d+)?% at \d+ s/);
    await screenshot(page, 'mint', { full: true });
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('with a key, shows on a mint’s page the similar launches behind its latest score, each linking to its page', async () => {
    const key = await issueTestKey(t.db, 'builder');
    // The latest score of each mint; one whose evidence holds launches.
    const latest: { mint: string; n: number }[] = await t.db
      .from(
        t
          .db('predictions')
          .whereNotNull('similar_launches')
          .orderBy([{ column: 'mint' }, { column: 'predicted_at', order: 'desc' }])
          .distinctOn('mint')
          .select('mint', t.db.raw("jsonb_array_length(similar_launches->'launches')::int as n"))
          .as('x'),
      )
      .where('n', '>', 0)
      .select('mint', 'n');
    expect(latest.length).toBeGreaterThan(0);
    const { mint } = latest[0]!;
    const probe = (
      await keyedApi(
        () => api.url,
        () => key,
      ).GET('/api/v1/probe/{mint}', { params: { path: { mint } } })
    ).data!;
    const launches = probe.similar_launches!.launches;
    const { page, errors } = await open(`/mint/${mint}`, undefined, { key: key.plaintext });
    await page.waitForSelector('#similar-launches tbody tr');
    const rows = page.locator('#similar-launches tbody tr');
    expect(await rows.count()).toBe(launches.length);
    const first = launches[0]!;
    expect(await rows.first().locator('a').getAttribute('href')).toBe(`/mint/${first.mint}`);
    const cells = (await rows.first().locator('th, td').allInnerTexts()).map((x) => x.trim());
    expect(cells[1]).toBe(first.distance.toFixed(3));
    expect(cells[2]).toContain(first.graduated ? 'graduated' : 'did not graduate');
    expect(await page.locator('#mint-similar').innerText()).toContain(probe.similar_launches!.model_version);
    // With a key the "Now" panel is the probe's body, which has no address: the page takes it from its URL.
    expect(probe).not.toHaveProperty('mint');
    await page.waitForSelector('#mint-now dl');
    expect(await page.locator('#mint-now').innerText()).toContain('From /api/v1/probe');
    expect(await page.locator('h1').innerText()).toBe(`${probe.name || 'Unnamed'} (${probe.symbol || '?'})`);
    expect(await page.locator('p.address code').innerText()).toBe(mint);
    await screenshot(page, 'mint-similar', { full: true });
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('verifies a ledger proof in the browser with Web Crypto, and rejects it tampered', async () => {
    // Proofs built by domain/ledger from the predictions this deployment logged in one hour.
    const rows = await t.db('predictions').orderBy('id');
    const hours = new Map<number, typeof rows>();
    for (const r of rows) hours.set(utcHourStart(r.predicted_at).getTime(), [...(hours.get(utcHourStart(r.predicted_at).getTime()) ?? []), r]);
    const [hour, inHour] = [...hours].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(inHour.length).toBeGreaterThan(2);
    // The real ledger commits the hours (sealed as its schedule would two hours later), and the API serves the proof.
    const ledger = ledgerActivities.create(areaContext(t.db, { now: () => new Date(hour + 2 * 3_600_000) }));
    // A run lists at most 48 due hours (the seeded history spans days): seal and commit until none is left.
    const dueHours = async () => (await ledger.sealLedgerHours()).tracks.find((x) => x.track === 'grad_prob')!.due;
    for (let due = await dueHours(); due.length; due = await dueHours())
      for (const h of due) await ledger.commitLedgerHour({ track: 'grad_prob', hourStart: h });
    const proof = (
      await http.GET('/api/ledger/proof/{prediction_id}', { params: { path: { prediction_id: Number(inHour[Math.floor(inHour.length / 2)]!.id) } } })
    ).data!;
    expect(proof?.leaf_payload).toBeDefined();

    const { page, errors } = await open('/audit');
    await page.waitForSelector('#commits[data-state="200"]');
    await page.fill('#proof-json', JSON.stringify(proof, null, 2));
    await page.click('#verify-proof');
    await page.waitForSelector('#proof-result .verdict');
    expect(await page.locator('#proof-result .verdict').innerText()).toBe('Valid proof');
    // Six checks of the proof itself, and the seventh: it equals the commit the ledger published for that hour.
    expect(await page.locator('#proof-result .checks li.pass').count()).toBe(7);
    expect(await page.locator('#proof-result').innerText()).toContain(JSON.parse(proof.leaf_payload).mint);
    await screenshot(page, 'audit-valid');

    const tampered = { ...proof, leaf_payload: proof.leaf_payload.replace(/"grad_prob":"0\./, '"grad_prob":"0.9') };
    expect(tampered.leaf_payload).not.toBe(proof.leaf_payload);
    await page.fill('#proof-json', JSON.stringify(tampered));
    await page.click('#verify-proof');
    await page.waitForSelector('#proof-result .verdict.bad');
    expect(await page.locator('#proof-result .verdict').innerText()).toMatch(/^Invalid proof: SHA-256 of the payload is [0-9a-f]{64}, not leaf_hash$/);

    const badSibling = {
      ...proof,
      siblings: proof.siblings.map((s, i) => (i === 0 ? { ...s, hash: s.hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) } : s)),
    };
    await page.fill('#proof-json', JSON.stringify(badSibling));
    await page.click('#verify-proof');
    await page.waitForSelector('#proof-result .verdict.bad');
    expect(await page.locator('#proof-result .verdict').innerText()).toMatch(
      /^Invalid proof: (the path arrives at [0-9a-f]{64}, not merkle_root_hex|sibling 0 pairs)/,
    );
    await screenshot(page, 'audit-tampered');

    // The page offers a recent committed prediction to try: the newest committed hour's last leaf, whose proof holds.
    const commits = (await http.GET('/api/ledger/commits', { params: { query: { limit: 48 } } })).data!.commits;
    const newest = [...commits].reverse().find((c) => c.last_prediction_id !== null)!.last_prediction_id;
    const tryLink = page.locator('#commits .try-proof a');
    expect(await tryLink.getAttribute('href')).toBe(`/audit?prediction=${newest}`);
    await tryLink.click();
    await page.waitForURL(`**/audit?prediction=${newest}`);
    await page.waitForSelector('#proof-result .verdict');
    expect(await page.locator('#proof-result .verdict').innerText()).toBe('Valid proof');
    expect(errors()).toEqual([]);
    await page.close();
  });

  it('fits a phone: the page never scrolls sideways, the table scrolls inside its frame', async () => {
    const { page, errors } = await open('/', { width: 390, height: 844 });
    await page.waitForSelector('#live tbody tr');
    await page.waitForSelector('#accuracy svg.reliability');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    const wrap = page.locator('#live .table-wrap');
    expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await screenshot(page, 'live-phone', { full: true });
    expect(errors()).toEqual([]);
    await page.close();
  });
});
