// The page frame: skip link, header with the company and a sign-out form, the section navigation,
// flash notices, and one <main> landmark. Every page is rendered through `page` or `plainPage`.

import type { SessionRow } from '../modules/console-sessions/index.js';
import { CSS_PATH, JS_PATH } from './assets.view.js';
import { type Html, html } from './html.view.js';

export type Section =
  | 'overview'
  | 'employees'
  | 'payroll'
  | 'compliance'
  | 'wallet'
  | 'invoices'
  | 'settings'
  | 'administrators'
  | 'security'
  | 'developers'
  | 'audit';

const NAV: { section: Section; href: string; label: string }[] = [
  { section: 'overview', href: '/console', label: 'Overview' },
  { section: 'employees', href: '/console/employees', label: 'Employees' },
  { section: 'payroll', href: '/console/payroll', label: 'Payroll' },
  { section: 'compliance', href: '/console/compliance', label: 'Compliance' },
  { section: 'wallet', href: '/console/wallet', label: 'Wallet' },
  { section: 'invoices', href: '/console/invoices', label: 'Invoices' },
  { section: 'settings', href: '/console/settings', label: 'Settings' },
  { section: 'administrators', href: '/console/administrators', label: 'Administrators' },
  { section: 'security', href: '/console/security/api', label: 'Security' },
  { section: 'developers', href: '/console/developers/webhooks', label: 'Developers' },
  { section: 'audit', href: '/console/audit-log', label: 'Audit log' },
];

function head(title: string, refreshSeconds?: number): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">${
    // A page waiting on something outside it (a top-up being verified) reloads itself; no script needed.
    refreshSeconds
      ? html`
<meta http-equiv="refresh" content="${refreshSeconds}">`
      : ''
  }
<title>${title} · Payroll console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CSS_PATH}">
<script src="${JS_PATH}" defer></script>
</head>`;
}

export interface Flash {
  notice?: string | Html;
  error?: string | Html;
  warning?: string | Html;
}

export function flashes(flash: Flash = {}): Html {
  return html`${flash.error ? html`<div class="error" role="alert">${flash.error}</div>` : ''}${
    flash.notice ? html`<div class="notice" role="status">${flash.notice}</div>` : ''
  }${flash.warning ? html`<div class="warning">${flash.warning}</div>` : ''}`;
}

/** A signed-in page. */
export function page(options: {
  title: string;
  session: SessionRow;
  section: Section;
  body: Html;
  flash?: Flash;
  refreshSeconds?: number;
}): Html {
  const { session } = options;
  return html`${head(options.title, options.refreshSeconds)}
<body>
<a class="skip" href="#content">Skip to main content</a>
<header class="top">
  <a class="brand" href="/console">${session.companyName}</a>
  <div class="who">
    <span>Signed in as ${session.firstName} ${session.lastName}</span>
    <form class="inline-form" method="post" action="/console/logout">
      <input type="hidden" name="_csrf" value="${session.csrfToken}">
      <button type="submit" class="link">Sign out</button>
    </form>
  </div>
</header>
<nav class="main" aria-label="Console sections">
  <ul>${NAV.map(
    (item) => html`<li><a href="${item.href}"${item.section === options.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  )}</ul>
</nav>
<main id="content" tabindex="-1">
<h1>${options.title}</h1>
${flashes(options.flash)}
${options.body}
</main>
<footer>Times are shown in UTC. Amounts are in naira (NGN).</footer>
</body>
</html>`;
}

/** A page without a session (sign-in, onboarding, errors before sign-in). */
export function plainPage(options: { title: string; body: Html; flash?: Flash }): Html {
  return html`${head(options.title)}
<body>
<a class="skip" href="#content">Skip to main content</a>
<header class="top"><span class="brand">Payroll console</span></header>
<main id="content" tabindex="-1" class="auth">
<h1>${options.title}</h1>
${flashes(options.flash)}
${options.body}
</main>
</body>
</html>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}
