/** The reference page's stylesheet, inlined (CSP allows inline styles, not external ones from other origins). */
export const pageStyle = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5f6b7a; --line: #d9dee6; --bg: #fff; --panel: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ee; --muted: #9aa5b4; --line: #333b47; --bg: #14181f; --panel: #1b2029; } }
* { box-sizing: border-box; }
body { margin: 0; display: grid; grid-template-columns: 340px 1fr; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
nav { position: sticky; top: 0; height: 100vh; overflow: auto; padding: 16px; border-right: 1px solid var(--line); background: var(--panel); font-size: 13px; }
nav ul { list-style: none; padding-left: 0; margin: 4px 0; } nav ul ul { padding-left: 8px; margin-bottom: 10px; }
nav a { color: inherit; text-decoration: none; } nav ul ul a { display: flex; gap: 6px; align-items: baseline; overflow-wrap: anywhere; } nav a:hover { text-decoration: underline; }
nav > ul > li > a { font-weight: 600; }
.brand { font-weight: 700; font-size: 15px; margin: 0 0 4px; }
main { padding: 24px 40px; max-width: 1100px; }
h2 { margin-top: 40px; border-bottom: 1px solid var(--line); padding-bottom: 6px; }
h3 { margin: 0 0 4px; font-size: 16px; } h4 { margin: 14px 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.op { border: 1px solid var(--line); border-radius: 8px; padding: 14px 18px; margin: 16px 0; }
.method { display: inline-block; flex: none; min-width: 58px; text-align: center; border-radius: 4px; padding: 1px 6px; font: 600 11px/1.6 ui-monospace, monospace; color: #fff; background: #6b7280; }
.method.get { background: #2563eb; } .method.post { background: #16a34a; } .method.put, .method.patch { background: #d97706; } .method.delete { background: #dc2626; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; } .path { font-size: 15px; }
.summary { margin: 4px 0; } .muted, .auth { color: var(--muted); } .auth { font-size: 13px; margin: 4px 0; }
.req { color: #dc2626; font-size: 12px; } .small { font-size: 13px; }
ul.props { margin: 4px 0; padding-left: 20px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; } th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 4px 8px; vertical-align: top; }
dl.responses { display: grid; grid-template-columns: 60px 1fr; gap: 6px 12px; margin: 0; }
dt.status { font: 600 13px ui-monospace, monospace; } dt.s2 { color: #16a34a; } dt.s4 { color: #d97706; } dt.s5 { color: #dc2626; }
dd { margin: 0; } .media { margin: 4px 0 8px; padding: 6px 10px; background: var(--panel); border-radius: 6px; }
@media (max-width: 800px) { body { grid-template-columns: 1fr; } nav { position: static; height: auto; } main { padding: 16px; } }
`;
