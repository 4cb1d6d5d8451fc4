/**
 * The accounts application's HTML pages. Every value written into a page is escaped; every form carries
 * the CSRF token; the one inline script carries the request's CSP nonce, which is what lets it run under
 * a policy that refuses every other inline script (an injected one included).
 */
import type { User } from './users.js';

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body>
</html>`;
}

/** A hidden field with the CSRF token of the page being rendered. */
const tokenField = (token: string) => `<input type="hidden" name="_csrf" value="${escapeHtml(token)}">`;

export function loginPage(token: string, error?: string): string {
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
${error === undefined ? '' : `<p id="error" role="alert">${escapeHtml(error)}</p>`}
<form method="post" action="/login">
  ${tokenField(token)}
  <label>User name <input name="username" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button id="sign-in">Sign in</button>
</form>`,
  );
}

export function homePage(user: User, token: string, nonce: string): string {
  return layout(
    'Your account',
    `<h1 id="greeting">Hello, ${escapeHtml(user.displayName)}</h1>
<form method="post" action="/profile">
  ${tokenField(token)}
  <label>Display name <input name="displayName" value="${escapeHtml(user.displayName)}" required></label>
  <button id="save">Save</button>
</form>
<form method="post" action="/logout">
  ${tokenField(token)}
  <button id="sign-out">Sign out</button>
</form>
<p>From the API: <output id="me">loading</output></p>
<script nonce="${escapeHtml(nonce)}">
  fetch('/api/me').then((res) => res.json()).then((me) => {
    document.getElementById('me').textContent = me.displayName;
  });
</script>`,
  );
}
