import { api, failureText, unreachable } from '../lib/api';
import { fill, h, notice, panel, type Child } from '../lib/dom';
import { verifyProof, type ProofCommit, type ProofResult } from '../ledger/proof-verifier';

/** The published commit of the proof's hour, when the commits list answers; null when it does not say. */
async function publishedCommit(doc: unknown): Promise<{ commit?: ProofCommit; note: string }> {
  const d = (doc ?? {}) as { track?: unknown; hour?: unknown };
  const hour = typeof d.hour === 'string' ? Date.parse(d.hour) : NaN;
  if (!Number.isFinite(hour)) return { note: '' };
  try {
    // `since` is exclusive: one second before the hour starts lists that hour's commit first.
    const r = await api.GET('/api/ledger/commits', { params: { query: { since: Math.floor(hour / 1000) - 1, limit: 1 } } });
    if (!r.data) return { note: `Not compared with a published commit: ${failureText(r.response.status, r.error)}` };
    const c = r.data.commits.find((x) => x.track === d.track && Date.parse(x.hour_start) === hour);
    if (!c) return { commit: { track: String(d.track), hour: String(d.hour), leafCount: -1, rootHex: '' }, note: 'No commit is published for this hour.' };
    return {
      commit: { track: c.track, hour: new Date(Date.parse(c.hour_start)).toISOString(), leafCount: c.leaf_count, rootHex: c.merkle_root_hex },
      note: '',
    };
  } catch (e) {
    if (!unreachable(e)) throw e;
    return { note: 'Not compared with a published commit: the API is unreachable.' };
  }
}

function verdictView(r: ProofResult, note: string): Child[] {
  const failed = r.checks.find((c) => !c.ok);
  const leaf = r.leaf;
  return [
    h('p', { class: `verdict ${r.ok ? 'ok' : 'bad'}` }, r.ok ? 'Valid proof' : `Invalid proof: ${failed?.detail ?? 'not checked'}`),
    h(
      'ol',
      { class: 'checks' },
      r.checks.map((c) =>
        h('li', { class: c.ok ? 'pass' : 'fail' }, h('span', { 'aria-hidden': 'true' }, c.ok ? '✓ ' : '✗ '), h('strong', {}, c.step), `: ${c.detail}`),
      ),
    ),
    note ? notice('info', note) : '',
    leaf
      ? h(
          'dl',
          { class: 'metrics wide leaf' },
          Object.entries(leaf).flatMap(([k, v]) => [h('dt', {}, k), h('dd', { class: 'mono' }, v === null ? 'null' : String(v))]),
        )
      : '',
  ];
}

/**
 * Verifies a proof here, in the browser (Web Crypto SHA-256), not by asking the server that made it: paste one, or
 * fetch one by prediction id. The page then compares it with the commit published for its hour when it can.
 */
export function proofChecker(initialId: string | null): HTMLElement {
  const idInput = h('input', { id: 'prediction-id', type: 'number', min: '1', step: '1', inputmode: 'numeric', value: initialId ?? undefined });
  const text = h('textarea', {
    id: 'proof-json',
    rows: '12',
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '{"track":"grad_prob","leaf_version":1,…}',
  });
  const result = h('div', { id: 'proof-result', role: 'status', 'aria-live': 'polite' });

  const verify = async () => {
    let doc: unknown;
    try {
      doc = JSON.parse(text.value);
    } catch {
      fill(result, h('p', { class: 'verdict bad' }, 'Invalid proof: the text is not JSON.'));
      return;
    }
    fill(result, h('p', { class: 'muted' }, 'Checking…'));
    const { commit, note } = await publishedCommit(doc);
    fill(result, ...verdictView(await verifyProof(doc, commit), note));
  };

  const fetchProof = async () => {
    const id = Number(idInput.value);
    if (!Number.isSafeInteger(id) || id < 1) return void fill(result, notice('problem', 'A prediction id is a whole number from 1.'));
    fill(result, h('p', { class: 'muted' }, 'Fetching…'));
    try {
      const r = await api.GET('/api/ledger/proof/{prediction_id}', { params: { path: { prediction_id: id } } });
      if (!r.data) return void fill(result, notice(r.response.status === 501 ? 'info' : 'problem', failureText(r.response.status, r.error)));
      text.value = JSON.stringify(r.data, null, 2);
      await verify();
    } catch (e) {
      if (!unreachable(e)) throw e;
      fill(result, notice('problem', 'The API is unreachable.'));
    }
  };

  if (initialId) void fetchProof();
  return panel(
    'proof-checker',
    'Check a proof',
    h(
      'p',
      {},
      'A proof shows that one prediction is a leaf of an hour’s merkle tree. This page recomputes it with your browser’s own SHA-256, ',
      'as the ledger format (docs/ledger-format.md) prescribes: the canonical leaf, its hash, each step to the root, and the root against the published commit.',
    ),
    h(
      'form',
      { class: 'row', onsubmit: (e: Event) => (e.preventDefault(), void fetchProof()) },
      h('label', { for: 'prediction-id' }, 'Prediction id'),
      idInput,
      h('button', { type: 'submit' }, 'Fetch proof'),
    ),
    h('label', { for: 'proof-json' }, 'Proof JSON'),
    text,
    h('p', {}, h('button', { type: 'button', id: 'verify-proof', onclick: () => void verify() }, 'Verify in this browser')),
    result,
  );
}
