import './shipment.css';
import type { ReactNode } from 'react';
import { Mail, MapPin, Phone, User, type LucideIcon } from 'lucide-react';
import type { Party } from '@/gen/logistics/v1/shipment_pb';
import { useMessages } from '@/lib/i18n';
import { EmailAddress, Ltr } from '@/components/ui/Bidi';
import { EMPTY_VALUE } from '@/utils/format';

type PartyCardProps = {
  title: string;
  party: Party | undefined;
  icon: ReactNode;
  /** The heading's id; by default made from an English title ("party-shipper"). */
  headingId?: string;
};

/** The rows of the card, in order, each term an id of the 'track' catalogue; a missing value
 * shows EMPTY_VALUE. */
function partyRows(party: Party | undefined): Array<{ term: string; Icon: LucideIcon; value: ReactNode }> {
  return [
    { term: 'track.party.name', Icon: User, value: party?.name && <bdi>{party.name}</bdi> },
    { term: 'track.party.address', Icon: MapPin, value: party?.address && <bdi>{party.address}</bdi> },
    {
      term: 'track.party.phone',
      Icon: Phone,
      value: party?.phone && (
        <a href={`tel:${party.phone.replace(/[^\d+]/g, '')}`}>
          <Ltr>{party.phone}</Ltr>
        </a>
      ),
    },
    {
      term: 'track.party.email',
      Icon: Mail,
      value: party?.email && (
        <a href={`mailto:${party.email}`}>
          <EmailAddress address={party.email} />
        </a>
      ),
    },
  ];
}

/** The shipper's or the receiver's name, address, phone and e-mail. */
export function PartyCard({ title, party, icon, headingId = `party-${title.toLowerCase().replace(/\W+/g, '-')}` }: PartyCardProps) {
  const t = useMessages('track');
  return (
    <section className="card party-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        {icon}
        {title}
      </h2>
      <dl className="party-list">
        {partyRows(party).map(({ term, Icon, value }) => (
          <div key={term} className="party-row">
            <dt>
              <Icon aria-hidden="true" size={16} /> {t(term)}
            </dt>
            <dd>{value || EMPTY_VALUE}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
