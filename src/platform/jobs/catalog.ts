// The job catalog: every durable job kind and the payload it carries. `JobQueue.enqueue` and
// `JobQueue.define` take their kind from here, so a misspelt kind, a payload of the wrong shape or
// a handler expecting another payload fails to compile. Each module adds its kinds next to its job
// definition by declaration merging (the platform never imports a module):
//
//   declare module '../../platform/jobs/catalog.js' {
//     interface JobPayloads {
//       'things.expire': { thingId: number };
//     }
//   }
//
// Payloads are stored as JSON (jobs.payload): plain objects of JSON values, no Dates or BigInts.

// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one block per job.
export interface JobPayloads {}

/** Every kind in the catalog. */
export type JobKind = keyof JobPayloads & string;
