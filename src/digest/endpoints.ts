// Server functions of Settings > Digest (called via google.script.run).
import { checkedRequest } from '../shared/request-check';
import type { DigestAnswer, DigestDto, DigestRequest } from './contract';
import { digestContext } from './context';
import { DIGEST_REQUEST } from './requests';
import { sendNow } from './service';
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
