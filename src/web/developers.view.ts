// The Developers → Webhooks pages' markup (docs/webhooks.md): each endpoint's card with its actions
// and recent deliveries, the add form with its events fieldset, and the confirmation page of an
// action that cannot be undone. Pure: service answers in, markup out.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { EVENT_TYPES } from '../modules/webhooks/index.js';
import { type Html, html, when } from './html.view.js';
import { csrfField } from './layout.view.js';
import type { WebContext } from './web.routes.js';

export const BASE = '/console/developers/webhooks';

type Endpoints = WebContext['services']['webhooks']['endpoints'];
type Endpoint = Awaited<ReturnType<Endpoints['list']>>['data']['data'][number];
type Delivery = Awaited<ReturnType<Endpoints['deliveries']>>['data']['data'][number];

export interface Shown {
  /** A secret to show once (just created or rotated). */
  secret?: { endpointId: number; value: string };
  /** What the add form held when it was refused, so nothing typed is lost. */
  typed?: { url: string; events: string[]; description: string };
}

/** The actions that cannot be undone ask first, on a page of their own (works without the script). */
export const CONFIRM: Record<string, { title: string; text: string; button: string }> = {
  'rotate-secret': {
    title: 'Rotate the signing secret',
    text: 'A new signing secret replaces the current one. The current secret keeps signing deliveries for 24 hours, then only the new one does: update your receiver before then.',
    button: 'Yes, rotate the secret',
  },
  delete: {
    title: 'Delete the endpoint',
    text: 'The endpoint and its delivery history are deleted, and no further events are sent to it. This cannot be undone.',
    button: 'Yes, delete the endpoint',
  },
};

/** The events an endpoint can subscribe to: every event (`*`), or types of the webhook event catalog. */
const EVENT_CHOICES = EVENT_TYPES.filter((type) => type !== 'webhook.test');

function eventsFieldset(ticked: string[]): Html {
  const box = (value: string, label: Html | string) => {
    const id = `event-${value.replace(/[^\w-]/g, '_')}`;
    return html`<label for="${id}"><input type="checkbox" id="${id}" name="events" value="${value}"${ticked.includes(value) ? html` checked` : ''}> ${label}</label>`;
  };
  return html`<fieldset><legend>Events</legend>
    <p class="hint">Tick the events to receive; nothing is ticked until you choose. “Every event” includes event types added later.</p>
    <div class="checks">${box('*', 'Every event (*)')}</div>
    <div class="checks">${EVENT_CHOICES.map((type) => box(type, html`<code>${type}</code>`))}</div>
  </fieldset>`;
}

/** One endpoint: its settings, its actions, the secret when just shown, and its recent deliveries. */
export function endpointCard(session: SessionRow, endpoint: Endpoint, deliveries: Delivery[], shown: Shown): Html {
  const action = (path: string, label: string, extra: Html | string = '', aria = '') =>
    html`<form class="inline-form" method="post" action="${BASE}/${endpoint.id}/${path}">${csrfField(session.csrfToken)}${extra}<button type="submit" class="secondary"${aria ? html` aria-label="${aria}"` : ''}>${label}</button></form>`;
  // Rotate and Delete open their confirmation page (a link: nothing happens before the confirm).
  const ask = (path: string, label: string) =>
    html`<a class="button secondary" href="${BASE}/${endpoint.id}/${path}" aria-label="${label} of ${endpoint.url}">${label}…</a>`;
  const secret =
    shown.secret?.endpointId === endpoint.id
      ? html`<div class="notice" role="status"><p>Signing secret, shown only now. Store it in your receiver:</p>
  <div class="token"><code id="secret-${endpoint.id}">${shown.secret.value}</code><button type="button" class="secondary" data-copy="secret-${endpoint.id}">Copy secret</button></div>
  <p id="secret-${endpoint.id}-status" role="status"></p></div>`
      : '';
  return html`<section aria-labelledby="endpoint-${endpoint.id}">
  <h2 id="endpoint-${endpoint.id}" class="wrap">${endpoint.url}</h2>
  <p>${endpoint.description ?? ''} Events: ${endpoint.events.join(', ')}.${endpoint.include_children ? ' Includes child companies.' : ''}
  ${endpoint.disabled ? html`<strong>Disabled</strong>${endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}` : html`Enabled.`}</p>
  ${secret}
  <div class="actions">${action('test', 'Send test event')} ${ask('rotate-secret', 'Rotate secret')}
  ${action('toggle', endpoint.disabled ? 'Enable' : 'Disable', html`<input type="hidden" name="disabled" value="${endpoint.disabled ? 'false' : 'true'}">`)}
  ${ask('delete', 'Delete')}</div>
  <div class="table-wrap"><table><caption>Recent deliveries</caption>
  <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Last attempt</th><th scope="col"></th></tr></thead>
  <tbody>${deliveries.map(
    (d) => html`<tr><td><code>${d.event_type}</code><br><small>${d.event_id}</small></td><td>${d.status}</td><td>${d.attempts}</td>
    <td class="wrap">${d.last_status_code ?? ''} ${d.last_error ?? ''}</td><td class="nowrap">${d.last_attempt_at ? when(d.last_attempt_at) : '—'}</td>
    <td>${d.status === 'pending' ? '' : action(`deliveries/${d.id}/retry`, 'Retry', '', `Retry delivery of ${d.event_type} (${d.event_id})`)}</td></tr>`,
  )}</tbody></table></div>
</section>`;
}

/** The Webhooks page's body: the add form (keeping what was typed), then the endpoints' cards. */
export function webhooksBody(session: SessionRow, cards: Html[], shown: Shown): Html {
  return html`<section aria-labelledby="add-endpoint"><h2 id="add-endpoint">Add an endpoint</h2>
  <p class="hint">Signed deliveries following Standard Webhooks; see docs/webhooks.md for the events and how to verify them.</p>
  <form method="post" action="${BASE}">${csrfField(session.csrfToken)}
    <label for="url">URL (https)</label><input id="url" name="url" type="url" class="wide" required value="${shown.typed?.url ?? ''}">
    ${eventsFieldset(shown.typed?.events ?? [])}
    <label for="description">Description</label><input id="description" name="description" type="text" class="wide" value="${shown.typed?.description ?? ''}">
    <label for="include_children"><input id="include_children" name="include_children" type="checkbox" value="true"> Also child companies' events</label>
    <button type="submit">Add endpoint</button>
  </form></section>
${cards.length > 0 ? cards : html`<p>No webhook endpoints yet.</p>`}`;
}

/** The confirmation page's body of an action of CONFIRM (`path`) on one endpoint. */
export function confirmBody(
  session: SessionRow,
  endpoint: { id: number; url: string; description: string | null },
  path: string,
  text: { text: string; button: string },
): Html {
  return html`<section class="card">
  <p class="wrap"><strong>${endpoint.url}</strong>${endpoint.description ? ` (${endpoint.description})` : ''}</p>
  <p>${text.text}</p>
  <form method="post" action="${BASE}/${endpoint.id}/${path}">${csrfField(session.csrfToken)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">${text.button}</button>
    <a class="button secondary" href="${BASE}">Cancel</a>
  </form></section>`;
}
