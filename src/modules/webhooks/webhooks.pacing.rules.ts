// How many attempts of a batch run at once. An attempt costs the server's event loop CPU only while
// it signs, writes the request and reads the answer; the wait between is free. So at most `working`
// attempts count at a time, and an attempt still unanswered after `patienceMs` (a remote or slow
// receiver, a timeout in the making) stops counting and lets the next one start, up to `maxInFlight`.
// A fast receiver (on the same machine, answering in a few ms) is then sent to `working` at a time,
// which bounds the event-loop share deliveries take from the API's requests (bench: 64 at once let
// a 10,000-event burst cut GET /api/users throughput to 0.6 of itself on a loaded host); a slow one
// does not hold up the rest of the batch, as before.
export interface Pacing {
  working: number;
  maxInFlight: number;
  patienceMs: number;
}

export function mapPaced<T, R>(items: readonly T[], pacing: Pacing, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  if (items.length === 0) return Promise.resolve(results);
  return new Promise((resolve, reject) => {
    let next = 0;
    let working = 0;
    let inFlight = 0;
    let finished = 0;
    let failed = false;
    const pump = () => {
      while (!failed && next < items.length && working < pacing.working && inFlight < pacing.maxInFlight) {
        const index = next++;
        working++;
        inFlight++;
        let counted = true;
        const release = () => {
          if (!counted) return;
          counted = false;
          working--;
        };
        const patience = setTimeout(() => {
          release();
          pump();
        }, pacing.patienceMs);
        run(items[index]).then(
          (result) => {
            results[index] = result;
            clearTimeout(patience);
            release();
            inFlight--;
            finished++;
            if (finished === items.length) resolve(results);
            else pump();
          },
          (error) => {
            clearTimeout(patience);
            failed = true;
            reject(error);
          },
        );
      }
    };
    pump();
  });
}
