// When this process last settled a transfer of each run from the provider's webhook: while a run's
// webhooks keep coming, a settle look waits for the late ones instead of asking the provider about
// each (one request per transfer against the provider's rate limit). At 100,000 employees the
// webhooks of the early batches were still queued behind the settlements when their minute passed,
// and most of the run's requests went on verifying them (docs/payroll-runs.md, "Paystack's rate
// limit"). Per process, as the rate limit's gate is: an instance that receives no webhook sees no
// pulse and verifies as before.

export interface WebhookPulse {
  /** A webhook settled (or repeated) a transfer of the run now. */
  beat(runId: string): void;
  /** Seconds since the run's last webhook in this process, or undefined when none came. */
  secondsSince(runId: string): number | undefined;
}

/** Runs kept before stale ones (over an hour) are dropped. */
const KEPT = 1_000;
const STALE_MS = 3_600_000;

export function createWebhookPulse(now: () => number = Date.now): WebhookPulse {
  const last = new Map<string, number>();
  return {
    beat(runId) {
      const at = now();
      if (last.size >= KEPT) for (const [id, seen] of last) if (at - seen > STALE_MS) last.delete(id);
      last.delete(runId); // re-inserted last: the map stays in order of the last beat
      last.set(runId, at);
    },
    secondsSince(runId) {
      const seen = last.get(runId);
      return seen === undefined ? undefined : (now() - seen) / 1000;
    },
  };
}
