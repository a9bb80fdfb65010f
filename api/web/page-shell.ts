/** The dashboard's pages: each is this static shell; web/main.ts draws the page named in `data-page` from the API. */
export type PageName = 'live' | 'accuracy' | 'audit' | 'mint';

const NAV: [PageName | 'docs', string, string][] = [
  ['live', '/', 'Live'],
  ['accuracy', '/accuracy', 'Accuracy'],
  ['audit', '/audit', 'Audit trail'],
  ['docs', '/docs', 'API docs'],
];

const HEADINGS: Record<PageName, string> = {
  live: 'Live launches',
  accuracy: 'Forward accuracy',
  audit: 'Audit trail',
  mint: 'Mint',
};

/**
 * No inline script or style and nothing from another origin: the policy below lets the page load only this API's
 * own files and call only this API. A token's name is chosen by whoever launched it, so the script writes every
 * value from the API as text, never as markup.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

export function pageShell(page: PageName): string {
  const nav = NAV.map(([name, href, label]) => `<li><a href="${href}"${name === page ? ' aria-current="page"' : ''}>${label}</a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${HEADINGS[page]} · Launchpad predictions</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/web/styles.css">
<script src="/web/app.js" defer></script>
</head>
<body data-page="${page}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/">Launchpad predictions</a>
<nav aria-label="Pages"><ul>${nav}</ul></nav>
</header>
<main id="main" tabindex="-1">
<h1>${HEADINGS[page]}</h1>
<noscript><p>This page draws itself with JavaScript. The same data is plain JSON: <a href="/api/live">/api/live</a>,
<a href="/api/accuracy">/api/accuracy</a>, <a href="/api/health">/api/health</a>; every operation is described at <a href="/docs">/docs</a>.</p></noscript>
</main>
<footer class="foot">
<a href="/docs">Interactive API schema</a> · <a href="/openapi.yaml">openapi.yaml</a> · <a href="/api/scope">scope</a> ·
<a href="/api/health">health</a> · <a href="/api/status">status</a>
</footer>
</body>
</html>
`;
}
