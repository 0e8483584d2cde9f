// The company search's fixed limits (interface section 8), in a module without dependencies so the search panel can
// use them without bundling the server's domain parsing: search depth by plan and the exclude-domains cap.

/** Paid plans page up to 2,000 results per query. */
export const PAID_DEPTH = 2000;
/** The free tier stops at 25 results per query. */
export const FREE_DEPTH = 25;
/** The service rejects more than this many exclude domains after de-duplication. */
export const EXCLUDE_DOMAIN_LIMIT = 1000;
