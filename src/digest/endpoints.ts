// Server functions of Settings > Digest (called via google.script.run), and the shared timer's slice that posts it.
import { checkedRequest } from '../shared/request-check';
import type { DigestAnswer, DigestDto, DigestRequest } from './contract';
import { digestContext } from './context';
import { DIGEST_REQUEST } from './requests';
import { digestSlice, sendNow } from './service';
import { digestDto, saveDigest, stopDigest } from './setup';

export function getDigest(): DigestDto {
  return digestDto(digestContext());
}

export function setDigest(request: DigestRequest): DigestAnswer {
  return saveDigest(digestContext(), checkedRequest<DigestRequest>(DIGEST_REQUEST, request, 'digest'));
}

export function removeDigest(): DigestAnswer {
  const p = digestContext();
  return stopDigest(p, () => p.outbox.drop(p.outbox.read().rows));
}

export function sendDigestNow(): DigestAnswer {
  const p = digestContext();
  const sent = sendNow(p);
  return { ...sent, state: digestDto(p) };
}

/** The shared timer's slice (src/scheduler/endpoints.ts). */
export function digestTimerSlice(budgetMs: number): { pending: boolean; wakeAt?: number } {
  return digestSlice(digestContext(), budgetMs);
}
