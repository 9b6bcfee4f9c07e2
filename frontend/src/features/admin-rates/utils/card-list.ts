// How the rates list names each card.
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { RateCard } from '@/gen/logistics/v1/rate_card_service_pb';
import { EMPTY_VALUE, formatDateParts, formatDateTime } from '@/utils/format';
import { basisPointsToPercent } from '@/utils/money';
import { PUBLIC_CARD_ID } from './rate-card-form';

export function isPublicCard(card: Pick<RateCard, 'id'>): boolean {
  return card.id === PUBLIC_CARD_ID;
}

/** "12.5% off the public card" or "Own card"; the public card's prices are "Public prices". */
export function pricingText(card: Pick<RateCard, 'id' | 'discountBasisPoints'>): string {
  if (isPublicCard(card)) return 'Public prices';
  return card.discountBasisPoints > 0 ? `${basisPointsToPercent(card.discountBasisPoints)}% off the public card` : 'Own card';
}

/** "Jan 5, 2026 – Dec 31, 2026", "From Jan 5, 2026", "Until …", or "Always". */
export function validityText(card: Pick<RateCard, 'validFrom' | 'validUntil'>): string {
  const day = (d: RateCard['validFrom']) => (d && d.year ? formatDateParts(d.year, d.month, d.day) : '');
  const from = day(card.validFrom);
  const until = day(card.validUntil);
  if (from && until) return `${from} – ${until}`;
  if (from) return `From ${from}`;
  if (until) return `Until ${until}`;
  return 'Always';
}

/** "admin@example.com, Nov 27, 2026, 9:05 AM", or "—" for a card never saved. */
export function updatedText(card: Pick<RateCard, 'updatedBy' | 'updateTime'>): string {
  const when = card.updateTime ? formatDateTime(timestampDate(card.updateTime)) : '';
  return [card.updatedBy, when].filter(Boolean).join(', ') || EMPTY_VALUE;
}
