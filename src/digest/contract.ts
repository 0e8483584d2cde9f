// What Settings > Digest exchanges with the server (the sidebar imports only this file from src/digest): the
// spreadsheet's digest as every editor may see it (never the webhook's address), and the change of it.
import type { DigestCadence, DigestConfig } from './settings';
import type { WebhookService } from './webhook';

export type { DigestCadence, WebhookService };

export interface DigestDto {
  /** The spreadsheet's digest, or null when it has none. */
  digest:
    | (Omit<DigestConfig, 'id'> & {
        /** The acting user set it: their timer posts it. */
        postedByYou: boolean;
        lastPost: { at: number; rows: number } | null;
        /** When the next weekly digest is due (null: per run, or waiting for a retry). */
        nextAt: number | null;
        /** The last post failed: what the service said, and when it is tried again. */
        problem: { message: string; since: number; retryAt: number } | null;
        posts: number;
      })
    | null;
  timeZone: string;
}

/** Settings' "Save digest": the webhook's address ('' keeps the one set, when the acting user set it) and cadence. */
export interface DigestRequest {
  webhookUrl: string;
  cadence: DigestCadence;
  weekday: number;
}

export interface DigestAnswer {
  ok: boolean;
  message: string;
  state: DigestDto;
}

/** What the playground's Settings suggests (the sandbox's stand-ins answer any such address). */
export const SANDBOX_WEBHOOK_HINT =
  'Local sandbox: https://hooks.slack.com/services/T0SANDBOX/B0DIGEST/playground01 (or a Google Chat address) posts to ' +
  "the sandbox's stand-in: the playground's Posted messages page shows it.";
