/**
 * Serves the web UI: the same HTML shell at every UI address (the page's script routes by the
 * address), and the script bundled from `app/` with esbuild once per process — no CDN, no remote
 * asset, nothing built ahead of time.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Router } from 'express';
import { Allow } from '../auth/route-rules.js';

const ENTRY = fileURLToPath(new URL('./app/main.ts', import.meta.url));

const STYLE = `
body{font:14px system-ui,sans-serif;margin:0;color:#1d232a;background:#fafbfc}
header{display:flex;gap:1.2rem;align-items:center;padding:.6rem 1.2rem;background:#1d2b3a;color:#fff}
header a{color:#cfe3ff;text-decoration:none} header label{margin-left:auto}
main{padding:1rem 1.5rem;max-width:1300px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:.4rem 0 1rem;background:#fff}
th,td{border-bottom:1px solid #e4e8ec;text-align:left;padding:.3rem .5rem;vertical-align:top}
th{background:#f0f3f6;font-weight:600}
pre.json{background:#f3f5f7;padding:.5rem;overflow:auto;max-height:18rem;margin:.2rem 0;font-size:12px}
.status{padding:.05rem .45rem;border-radius:.6rem;background:#e8edf2;font-size:12px}
.status.Running{background:#dbeafe}.status.Completed{background:#dcfce7}.status.Failed,.status.TimedOut{background:#fee2e2}
.status.Canceled,.status.Terminated,.status.Paused{background:#fef3c7}
.facets{display:flex;gap:.5rem;flex-wrap:wrap;margin:.5rem 0}.facets a{text-decoration:none;color:inherit}
.filters select,.filters input,.actions input{margin:.15rem .3rem .15rem 0;padding:.2rem}
.actions{background:#fff;border:1px solid #e4e8ec;border-radius:6px;padding:.5rem;margin:.6rem 0}
.panels{display:grid;grid-template-columns:1fr 1fr;gap:.8rem}
.tabs button.active{font-weight:700;text-decoration:underline}
.links{display:flex;gap:1rem;margin:.3rem 0}
.error{color:#b42318;margin:.4rem 0}.ok{color:#067647}.empty{color:#667085}
button{margin:.15rem .3rem .15rem 0;cursor:pointer} button.danger{color:#b42318}
svg.timeline .bar.activity{fill:#60a5fa}svg.timeline .bar.timer{fill:#a78bfa}svg.timeline .bar.child{fill:#34d399}
svg.timeline .bar.failed,svg.timeline .bar.timed-out{fill:#f87171}svg.timeline .bar.open{opacity:.55}
svg.timeline text{font-size:12px;fill:#344054}
details.event{border-bottom:1px solid #e4e8ec;padding:.15rem 0} details.event summary{cursor:pointer;font-family:ui-monospace,monospace;font-size:12px}
`;

const SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Logbook</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><header id="header"><strong>Logbook</strong></header><main id="main">Loading…</main>
<script type="module" src="/ui/app.js"></script></body></html>`;

let bundle: Promise<string> | undefined;

/** The UI's script, bundled from TypeScript on first request and kept. */
function appScript(): Promise<string> {
  bundle ??= build({ entryPoints: [ENTRY], bundle: true, write: false, format: 'esm', target: 'es2022', minify: true, sourcemap: false, logLevel: 'silent' })
    .then((result) => result.outputFiles[0]!.text)
    .catch((error: unknown) => {
      bundle = undefined;
      throw error;
    });
  return bundle;
}

/** The UI's routes: mount before the API's 404 handler. */
export function uiRoutes(): Router {
  const router = Router();
  const page = (_req: unknown, res: { type(t: string): { send(b: string): void } }) => res.type('html').send(SHELL);
  router.get('/', Allow.public, page);
  router.get(['/namespaces', '/namespaces/*rest'], Allow.public, page);
  router.get('/ui/app.js', Allow.public, async (_req, res) => {
    res.type('application/javascript').setHeader('cache-control', 'no-cache');
    res.send(await appScript());
  });
  return router;
}
