/**
 * The page for people who reach an SSO endpoint in the browser and cannot go on (a refused sign-in, an
 * account without SSO): a title, a sentence, a way back. It is drawn by the server, without the console's
 * scripts, so it copies the look of the console's sign-in page: the same type, grey ground, white card
 * with a red notice, and an indigo button back to sign-in (colours checked for 4.5:1 contrast).
 */
const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 16px;
  background: #f8f9fa; color: #000; line-height: 1.55; -webkit-font-smoothing: antialiased;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif; }
main { width: 100%; max-width: 400px; }
.brand { margin: 0 0 4px; text-align: center; font-size: 26px; font-weight: 700; line-height: 1.35; }
.lead { margin: 0 0 20px; text-align: center; color: #495057; font-size: 16px; }
.card { background: #fff; border: 1px solid #dee2e6; border-radius: 8px; padding: 32px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.05), 0 10px 15px -5px rgba(0, 0, 0, 0.05), 0 7px 7px -5px rgba(0, 0, 0, 0.04); }
.notice { background: #fff5f5; border-radius: 8px; padding: 12px 16px; margin: 0 0 20px; }
.notice h1 { margin: 0 0 4px; font-size: 14px; font-weight: 700; color: #a51111; }
.notice p { margin: 0; font-size: 14px; color: #a51111; }
.back { display: block; text-align: center; background: #3b5bdb; color: #fff; font-weight: 600;
  font-size: 14px; text-decoration: none; border-radius: 8px; padding: 9px 18px; }
.back:hover { background: #364fc7; }
.back:focus-visible { outline: 2px solid #3b5bdb; outline-offset: 2px; }
`;

export function messagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · SVC console</title><style>${STYLE}</style></head>
<body><main>
<p class="brand">SVC console</p>
<p class="lead">Single sign-on</p>
<div class="card">
<div class="notice" role="alert"><h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(message)}</p></div>
<a class="back" href="/login">Back to sign-in</a>
</div>
</main></body></html>`;
}
