// What the runner knows about the current run that the baseline scenarios need beyond BenchContext.
export const BASELINE_SCENARIO = 'bare Fastify + Drizzle query (baseline)';

export const runState = {
  /** Connection string of this run's fresh database (the bare-query baseline connects to it). */
  databaseUrl: '',
};
