// Sign-in, the rendering: the sign-in form and the page of an unlock link.
import { safeNext } from './auth.rules.js';
import { type Html, html } from './html.view.js';

export function loginForm(csrf: string, values: { email?: string; next?: string }, error?: string): Html {
  return html`<div class="card">
<form method="post" action="/console/login" novalidate>
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="next" value="${safeNext(values.next)}">
  <label for="email">E-mail address <span class="hint">Your company e-mail or your personal e-mail</span></label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${values.email ?? ''}"${error ? html` aria-invalid="true" aria-describedby="login-error"` : ''} autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
</div>
<p><a href="/console/forgot-password">Forgot your password?</a></p>
<p class="muted">The console is for company administrators. New administrators set their password through the onboarding link in their invitation e-mail.</p>`;
}

/** The unlock link's page: it only asks; its button redeems the link. */
export function unlockForm(token: string, csrf: string): Html {
  return html`<div class="card">
<p>Password sign-in to your account is locked after too many wrong passwords. This lifts the lock in this browser only; the link works once.</p>
<form method="post" action="/console/unlock/${token}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <button type="submit">Lift the lock in this browser</button>
</form>
</div>`;
}
