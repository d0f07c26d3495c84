/** The provider pages' stylesheet, served from /assets/sandbox.css so the pages run under a strict CSP. */
export const SANDBOX_CSS = `
:root { color-scheme: light dark; --accent: #3949ab; --accent-ink: #fff; --bg: #f5f6fa; --card: #fff; --ink: #1c1d21; --muted: #5b5f6b; --danger: #b3261e; --border: #d5d8e0; }
@media (prefers-color-scheme: dark) { :root { --accent: #8c9eff; --accent-ink: #10122b; --bg: #15161a; --card: #1f2126; --ink: #eceef3; --muted: #a6abb8; --danger: #ffb4ab; --border: #3a3d45; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { width: 100%; max-width: 26rem; background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 2rem; box-shadow: 0 8px 24px rgb(0 0 0 / 0.08); }
.brand { margin: 0 0 1rem; font-size: 0.8rem; font-weight: 600; letter-spacing: 0.08em; text-transform: uppercase; color: var(--muted); }
h1 { margin: 0 0 0.5rem; font-size: 1.4rem; line-height: 1.3; }
p { margin: 0 0 1rem; }
.muted { color: var(--muted); font-size: 0.9rem; }
label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
input[type=text], input[type=password] { width: 100%; padding: 0.6rem 0.75rem; border: 1px solid var(--border); border-radius: 8px; background: transparent; color: inherit; font: inherit; }
input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; flex-wrap: wrap; }
button { flex: 1; min-height: 2.75rem; padding: 0.6rem 1rem; border-radius: 8px; border: 1px solid var(--accent); font: inherit; font-weight: 600; cursor: pointer; background: var(--accent); color: var(--accent-ink); }
button.secondary { background: transparent; color: var(--accent); }
button.link { flex: none; min-height: 0; padding: 0; border: 0; background: none; color: var(--accent); text-decoration: underline; font-weight: 400; }
.error { margin: 1rem 0 0; padding: 0.75rem; border-radius: 8px; border: 1px solid var(--danger); color: var(--danger); }
ul.grants { margin: 0.5rem 0 1rem; padding-inline-start: 1.25rem; }
code { font-family: ui-monospace, monospace; font-size: 0.85em; overflow-wrap: anywhere; }
.switch-account { margin-top: 1.25rem; }
details { margin-top: 1.5rem; font-size: 0.9rem; color: var(--muted); }
`;
