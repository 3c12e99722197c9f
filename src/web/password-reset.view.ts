// Forgot password, the rendering: the form that asks for the e-mail and the form of the e-mailed
// link that sets the new password.
import { PASSWORD_MIN_LENGTH } from '../modules/users/index.js';
import { type Html, html } from './html.view.js';

export function askForm(csrf: string): Html {
  return html`<div class="card"><form method="post" action="/console/forgot-password" novalidate>
  <input type="hidden" name="_csrf" value="${csrf}">
  <label for="email">E-mail address <span class="hint">Your company e-mail or your personal e-mail</span></label>
  <input id="email" name="email" type="email" autocomplete="username" required>
  <button type="submit">E-mail me a link</button>
</form></div><p><a href="/console/login">Back to sign in</a></p>`;
}

export function resetForm(token: string, csrf: string): Html {
  return html`<div class="card"><form method="post" action="/console/reset-password/${token}" novalidate>
  <input type="hidden" name="_csrf" value="${csrf}">
  <label for="password">New password <span class="hint" id="password-rules">At least ${PASSWORD_MIN_LENGTH} characters, with at least one upper-case letter and one symbol (such as ! or -).</span></label>
  <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="password-rules">
  <label for="password_confirmation">Repeat the password</label>
  <input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password" required>
  <button type="submit">Set the new password</button>
</form></div>`;
}
