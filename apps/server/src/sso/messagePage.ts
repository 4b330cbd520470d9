/** A minimal page for people who reach an SSO endpoint in the browser: a title, a sentence, a way back. */
const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );

export function messagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
<h1 style="font-size: 1.4rem">${escapeHtml(title)}</h1>
<p id="message">${escapeHtml(message)}</p>
<p><a href="/login">Back to sign-in</a></p>
</body></html>`;
}
