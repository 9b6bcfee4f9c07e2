import { Plane, Ship, Truck, Warehouse } from 'lucide-react';
import { useMessages } from '@/lib/i18n';

const SERVICES = [
  {
    id: 'freight-mode-air-freight',
    title: 'common.service.air.title',
    Icon: Plane,
    text: 'common.service.air.text',
  },
  {
    id: 'freight-mode-sea-freight',
    title: 'common.service.sea.title',
    Icon: Ship,
    text: 'common.service.sea.text',
  },
  {
    id: 'freight-mode-land-freight',
    title: 'common.service.land.title',
    Icon: Truck,
    text: 'common.service.land.text',
  },
  {
    id: 'freight-mode-warehousing',
    title: 'common.service.warehousing.title',
    Icon: Warehouse,
    text: 'common.service.warehousing.text',
  },
] as const;

export type CoreService = { id: (typeof SERVICES)[number]['id']; title: string; Icon: (typeof SERVICES)[number]['Icon']; text: string };

/** The four core services in the visitor's language, their icons and the Services page anchors. */
export function useCoreServices(): CoreService[] {
  const t = useMessages('common');
  return SERVICES.map((service) => ({ ...service, title: t(service.title), text: t(service.text) }));
}
