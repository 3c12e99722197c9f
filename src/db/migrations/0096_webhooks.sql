-- Outbound webhooks (docs/webhooks.md): a company's endpoints, the events that matched at least one
-- endpoint (written in the transaction of the change), and one delivery per event and endpoint,
-- which is also the delivery queue (status pending, next_attempt_at, a lease while sent).
CREATE TABLE webhook_endpoints (
  id serial PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  url text NOT NULL,
  description text,
  events text[] NOT NULL,
  include_children boolean NOT NULL DEFAULT false,
  disabled boolean NOT NULL DEFAULT false,
  disabled_reason text,
  -- AES-256-GCM of the whsec_ secret under WEBHOOK_SECRET_KEY; never returned by the API.
  secret_encrypted text NOT NULL,
  -- The secret before the last rotation: deliveries are signed with both until it expires (24 h).
  previous_secret_encrypted text,
  previous_secret_expires_at timestamptz,
  -- Start of the current run of failed attempts (null after any 2xx); 5 days of it disables the endpoint.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_company_idx ON webhook_endpoints (company_id, id);

CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies(id),
  type text NOT NULL,
  -- The exact JSON body sent (and signed) on every attempt.
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_company_idx ON webhook_events (company_id, created_at);

CREATE TABLE webhook_deliveries (
  id serial PRIMARY KEY,
  endpoint_id integer NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES webhook_events(id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- Set while an attempt is in flight; a crashed sender's claim is taken over once it passes.
  locked_until timestamptz,
  last_status_code integer,
  last_error text,
  last_response_body text,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
