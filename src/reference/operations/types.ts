export interface OperationDoc {
  /** Replaces the route's own summary (which is kept, without its spec code, when this is absent). */
  summary?: string;
  /** Markdown: what the operation does, from the project's docs. */
  description: string;
  /** Example request body: required for every operation that takes one (the reference test checks). */
  body?: unknown;
  /**
   * Body fields the route's code refuses when they are missing, where the schema cannot say so
   * (checked by src/reference/required-fields.test.ts, one missing field at a time).
   */
  required?: string[];
  /** Success examples by status where the one generated from the schema would not tell enough. */
  responses?: Record<string, unknown>;
  /** The request body of a route that reads its body by hand (no body schema): documented here. */
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
}
